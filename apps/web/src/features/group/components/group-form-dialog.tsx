import { zodResolver } from '@hookform/resolvers/zod';
import { type TGroup, VENDOR_ADMIN, ZCreateGroupBody } from '@quire/contract';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { NamedFormDialog } from '../../../components/named-form-dialog';
import { withEmptyMessages } from '../../../lib/form';
import { type SaveMutation, sendingAs } from '../../../lib/use-form-submit';
import { useCreateGroup } from '../api/create-group';
import { useEditGroup } from '../api/edit-group';
import { useUserOptions } from '../api/get-user-options';

type GroupInput = z.input<typeof ZCreateGroupBody>;
const resolver = withEmptyMessages(zodResolver(ZCreateGroupBody), { name: 'Enter a name for the group' });

/** Create or edit a group: its name, what it is for, and who is in it. */
export function GroupFormDialog({ group, onClose }: { group?: TGroup; onClose: () => void }) {
  const users = useUserOptions();
  const createGroup = useCreateGroup();
  const editGroup = useEditGroup();
  const form = useForm<GroupInput, unknown, z.output<typeof ZCreateGroupBody>>({
    resolver,
    defaultValues: {
      name: group?.name ?? '',
      description: group?.description ?? '',
      user_ids: group?.members.map((m) => m.id) ?? [],
    },
  });
  const isEdit = group !== undefined;
  const save: SaveMutation<z.output<typeof ZCreateGroupBody>, TGroup> = isEdit
    ? sendingAs(editGroup, (body) => ({ id: group.id, body }))
    : createGroup;

  // Members no longer in the pickers (deleted users) are not offered; the API drops them.
  // The vendor's own admin account is nobody's colleague: it is never offered.
  const options = (users.data ?? [])
    .filter((u) => u.access_type !== VENDOR_ADMIN)
    .map((u) => ({
      id: u.id,
      label: u.name || u.username,
      detail: u.username,
    }));

  return (
    <NamedFormDialog
      noun="group"
      editing={group?.name}
      createLabel="Create group"
      size="medium"
      onClose={onClose}
      form={form}
      save={save}
      submit={{
        created: (saved) => [
          'Group created',
          `${saved.name} has ${saved.member_count === 1 ? '1 member' : `${saved.member_count} members`}.`,
        ],
        edited: (saved) => ['Group updated', `${saved.name} was saved.`],
      }}
      picker={{
        name: 'user_ids',
        label: 'Members',
        options,
        placeholder: 'Type a name or username',
        emptyText: 'No users yet.',
        loading: users.isPending,
      }}
    />
  );
}
