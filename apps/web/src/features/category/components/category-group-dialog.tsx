import { zodResolver } from '@hookform/resolvers/zod';
import { type TCategoryGroup, ZCreateCategoryGroupBody } from '@quire/contract';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { NamedFormDialog } from '../../../components/named-form-dialog';
import { withEmptyMessages } from '../../../lib/form';
import { type SaveMutation, sendingAs } from '../../../lib/use-form-submit';
import { useCreateCategoryGroup } from '../api/create-category-group';
import { useFileCategories } from '../api/get-file-categories';
import { useGrantees } from '../api/get-grantees';
import { useUpdateCategoryGroup } from '../api/update-category-group';
import { draftsFrom, type GrantDraft, GrantsEditor, grantsInput } from './grants-editor';

const ZGroupForm = ZCreateCategoryGroupBody.pick({ name: true, description: true, category_ids: true });
type GroupInput = z.input<typeof ZGroupForm>;
type GroupValues = z.output<typeof ZGroupForm>;
const resolver = withEmptyMessages(zodResolver(ZGroupForm), { name: 'Enter a name for the category group' });

/** Create or edit a category group: its member categories, and rights that hold on each of them. */
export function CategoryGroupDialog({ group, onClose }: { group?: TCategoryGroup; onClose: () => void }) {
  const categories = useFileCategories();
  const grantees = useGrantees();
  const create = useCreateCategoryGroup();
  const update = useUpdateCategoryGroup();
  const [grants, setGrants] = useState<GrantDraft[]>(() => draftsFrom(group?.grants ?? []));
  const form = useForm<GroupInput, unknown, GroupValues>({
    resolver,
    defaultValues: {
      name: group?.name ?? '',
      description: group?.description ?? '',
      category_ids: group?.categories.map((c) => c.id) ?? [],
    },
  });
  const withGrants = (values: GroupValues) => ({ ...values, permissions: grantsInput(grants) });
  const save: SaveMutation<GroupValues, TCategoryGroup> = group
    ? sendingAs(update, (values) => ({ id: group.id, ...withGrants(values) }))
    : sendingAs(create, withGrants);

  return (
    <NamedFormDialog
      noun="category group"
      editing={group?.name}
      createLabel="Create group"
      size="large"
      onClose={onClose}
      form={form}
      save={save}
      submit={{
        created: (saved) => [
          'Category group created',
          `${saved.name} holds ${saved.categories.length} categories.`,
        ],
        edited: (saved) => ['Category group saved', `${saved.name} was saved.`],
      }}
      picker={{
        name: 'category_ids',
        label: 'Categories',
        options: (categories.data ?? []).map((c) => ({ id: c.id, label: c.path })),
        placeholder: 'Type a category name',
        emptyText: 'No categories yet.',
        loading: categories.isPending,
      }}
    >
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
