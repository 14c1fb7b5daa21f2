import { zodResolver } from '@hookform/resolvers/zod';
import { type TCategoryGroup, ZCreateCategoryGroupBody } from '@quire/contract';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { FormMultiPicker } from '../../../components/form-multi-picker';
import { NamedFormDialog } from '../../../components/named-form-dialog';
import { useNotify } from '../../../components/notifications/notification-context';
import { fieldBinder, setServerErrors, withEmptyMessages } from '../../../lib/form';
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
  const bind = fieldBinder(form);
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
    <NamedFormDialog
      title={group ? `Edit ${group.name}` : 'New category group'}
      size="large"
      onClose={onClose}
      pending={pending}
      onSubmit={onSubmit}
      name={bind('name')}
      description={bind('description')}
      submitLabel={group ? 'Save changes' : 'Create group'}
    >
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
    </NamedFormDialog>
  );
}
