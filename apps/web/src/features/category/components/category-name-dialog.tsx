import { zodResolver } from '@hookform/resolvers/zod';
import { type TCategory, ZStoreCategoryBody } from '@quire/contract';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { FormDialog } from '../../../components/form-dialog';
import { DescriptionField, FormField } from '../../../components/form-field';
import { fieldBinder, withEmptyMessages } from '../../../lib/form';
import { type SaveMutation, sendingAs, useFormSubmit } from '../../../lib/use-form-submit';
import { useStoreFolder } from '../api/store-folder';
import { useUpdateFolder } from '../api/update-folder';

const ZNameForm = ZStoreCategoryBody.pick({ name: true, description: true });
type NameInput = z.input<typeof ZNameForm>;
type NameValues = z.output<typeof ZNameForm>;
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
  const store = useStoreFolder();
  const update = useUpdateFolder();
  const form = useForm<NameInput, unknown, NameValues>({
    resolver,
    defaultValues: { name: folder?.name ?? '', description: folder?.description ?? '' },
  });
  const bind = fieldBinder(form);
  const save: SaveMutation<NameValues, TCategory> = folder
    ? sendingAs(update, (values) => ({ folder_id: folder.id, ...values }))
    : sendingAs(store, (values) => ({ ...values, ...(parent ? { parent_id: parent.id } : {}) }));
  const onSubmit = useFormSubmit(form, save, {
    fields: FIELDS,
    failure: folder ? 'Failed to edit category!' : 'Failed to create category!',
    told: (saved) =>
      folder
        ? ['Category saved', `${saved.name} was saved.`]
        : ['Category created', parent ? `${saved.name} is in ${parent.name}.` : `${saved.name} was created.`],
    onDone: (saved) => onSaved(saved.id),
    whilePending: 'ignore',
  });

  const title = folder ? `Rename ${folder.name}` : parent ? `New category in ${parent.name}` : 'New category';
  return (
    <FormDialog
      title={title}
      onClose={onClose}
      pending={save.isPending}
      onSubmit={onSubmit}
      submitLabel={folder ? 'Save' : 'Create category'}
    >
      <FormField label="Name" autoComplete="off" {...bind('name')} />
      <DescriptionField {...bind('description')} />
    </FormDialog>
  );
}
