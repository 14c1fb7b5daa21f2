import { zodResolver } from '@hookform/resolvers/zod';
import { type TCategory, ZStoreCategoryBody } from '@quire/contract';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { Dialog } from '../../../components/dialog';
import { DialogActions } from '../../../components/dialog-actions';
import { DescriptionField, FormField } from '../../../components/form-field';
import { useNotify } from '../../../components/notifications/notification-context';
import { fieldBinder, setServerErrors, withEmptyMessages } from '../../../lib/form';
import { useStoreFolder } from '../api/store-folder';
import { useUpdateFolder } from '../api/update-folder';

const ZNameForm = ZStoreCategoryBody.pick({ name: true, description: true });
type NameInput = z.input<typeof ZNameForm>;
const FIELDS = ['name', 'description'] as const;
const resolver = withEmptyMessages(zodResolver(ZNameForm), { name: 'Enter a name for the category' });

/**
 * A new category (at the top, or under `parent`) or a new name for one. Names are unique
 * among siblings in any letter case: the API says so at the name field.
 */
export function CategoryNameDialog({
  folder,
  parent,
  onClose,
  onSaved,
}: {
  /** Renaming this one; absent: creating. */
  folder?: TCategory;
  parent?: { id: number; name: string } | null;
  onClose: () => void;
  onSaved: (id: number) => void;
}) {
  const notify = useNotify();
  const store = useStoreFolder();
  const update = useUpdateFolder();
  const form = useForm<NameInput, unknown, z.output<typeof ZNameForm>>({
    resolver,
    defaultValues: { name: folder?.name ?? '', description: folder?.description ?? '' },
  });
  const pending = store.isPending || update.isPending;
  const bind = fieldBinder(form);
  const failed = (title: string) => (error: Error) => {
    setServerErrors(form, error, FIELDS);
    notify.notifyFailure(title, error);
  };

  const onSubmit = form.handleSubmit((values) => {
    if (pending) return;
    if (folder) {
      update.mutate(
        { folder_id: folder.id, ...values },
        {
          onSuccess: (saved) => {
            notify.success('Category saved', `${saved.name} was saved.`);
            onSaved(saved.id);
          },
          onError: failed('Failed to edit category!'),
        },
      );
    } else {
      store.mutate(
        { ...values, ...(parent ? { parent_id: parent.id } : {}) },
        {
          onSuccess: (created) => {
            notify.success(
              'Category created',
              parent ? `${created.name} is in ${parent.name}.` : `${created.name} was created.`,
            );
            onSaved(created.id);
          },
          onError: failed('Failed to create category!'),
        },
      );
    }
  });

  const title = folder ? `Rename ${folder.name}` : parent ? `New category in ${parent.name}` : 'New category';
  return (
    <Dialog title={title} onClose={onClose} busy={pending}>
      <form className="form" onSubmit={onSubmit} noValidate aria-busy={pending}>
        <FormField label="Name" autoComplete="off" {...bind('name')} />
        <DescriptionField {...bind('description')} />
        <DialogActions onCancel={onClose} pending={pending} pendingLabel="Saving…">
          {folder ? 'Save' : 'Create category'}
        </DialogActions>
      </form>
    </Dialog>
  );
}
