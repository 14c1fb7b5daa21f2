import { zodResolver } from '@hookform/resolvers/zod';
import { type TCategoryGroup, ZCreateCategoryGroupBody } from '@quire/contract';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { Dialog } from '../../../components/dialog';
import { DialogActions } from '../../../components/dialog-actions';
import { DescriptionField, FormField } from '../../../components/form-field';
import { FormMultiPicker } from '../../../components/form-multi-picker';
import { useNotify } from '../../../components/notifications/notification-context';
import { setServerErrors, withEmptyMessages } from '../../../lib/form';
import { useCreateCategoryGroup } from '../api/create-category-group';
import { useFileCategories } from '../api/get-file-categories';
import { useGrantees } from '../api/get-grantees';
import { useUpdateCategoryGroup } from '../api/update-category-group';
import { draftsFrom, type GrantDraft, GrantsEditor, grantsInput } from './grants-editor';

const ZGroupForm = ZCreateCategoryGroupBody.pick({ name: true, description: true, category_ids: true });
type GroupInput = z.input<typeof ZGroupForm>;
const FIELDS = ['name', 'description', 'category_ids'] as const;
const resolver = withEmptyMessages(zodResolver(ZGroupForm), { name: 'Enter a name for the category group' });

/** Create or edit a category group: its member categories, and rights that hold on each of them. */
export function CategoryGroupDialog({ group, onClose }: { group?: TCategoryGroup; onClose: () => void }) {
  const notify = useNotify();
  const categories = useFileCategories();
  const grantees = useGrantees();
  const create = useCreateCategoryGroup();
  const update = useUpdateCategoryGroup();
  const [grants, setGrants] = useState<GrantDraft[]>(() => draftsFrom(group?.grants ?? []));
  const form = useForm<GroupInput, unknown, z.output<typeof ZGroupForm>>({
    resolver,
    defaultValues: {
      name: group?.name ?? '',
      description: group?.description ?? '',
      category_ids: group?.categories.map((c) => c.id) ?? [],
    },
  });
  const { errors } = form.formState;
  const pending = create.isPending || update.isPending;
  const failed = (title: string) => (error: Error) => {
    setServerErrors(form, error, FIELDS);
    notify.notifyFailure(title, error);
  };

  const onSubmit = form.handleSubmit((values) => {
    if (pending) return;
    const body = { ...values, permissions: grantsInput(grants) };
    if (group)
      update.mutate(
        { id: group.id, ...body },
        {
          onSuccess: (saved) => {
            notify.success('Category group saved', `${saved.name} was saved.`);
            onClose();
          },
          onError: failed('Failed to edit category group!'),
        },
      );
    else
      create.mutate(body, {
        onSuccess: (saved) => {
          notify.success(
            'Category group created',
            `${saved.name} holds ${saved.categories.length} categories.`,
          );
          onClose();
        },
        onError: failed('Failed to create category group!'),
      });
  });

  return (
    <Dialog
      title={group ? `Edit ${group.name}` : 'New category group'}
      onClose={onClose}
      busy={pending}
      size="large"
    >
      <form className="form" onSubmit={onSubmit} noValidate aria-busy={pending}>
        <FormField label="Name" autoComplete="off" error={errors.name?.message} {...form.register('name')} />
        <DescriptionField error={errors.description?.message} {...form.register('description')} />
        <FormMultiPicker
          control={form.control}
          name="category_ids"
          label="Categories"
          options={(categories.data ?? []).map((c) => ({ id: c.id, label: c.path }))}
          placeholder="Type a category name"
          emptyText="No categories yet."
          loading={categories.isPending}
        />
        <fieldset className="plain-fieldset">
          <legend>Rights on every category of the group</legend>
          <GrantsEditor
            value={grants}
            onChange={setGrants}
            grantees={grantees.data}
            loading={grantees.isPending}
            caption="Rights given through the group"
          />
        </fieldset>
        <DialogActions onCancel={onClose} pending={pending} pendingLabel="Saving…">
          {group ? 'Save changes' : 'Create group'}
        </DialogActions>
      </form>
    </Dialog>
  );
}
