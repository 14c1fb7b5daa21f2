import { zodResolver } from '@hookform/resolvers/zod';
import { type TGroup, VENDOR_ADMIN, ZCreateGroupBody } from '@quire/contract';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { FormMultiPicker } from '../../../components/form-multi-picker';
import { NamedFormDialog } from '../../../components/named-form-dialog';
import { useNotify } from '../../../components/notifications/notification-context';
import { fieldBinder, setServerErrors, withEmptyMessages } from '../../../lib/form';
import { useCreateGroup } from '../api/create-group';
import { useEditGroup } from '../api/edit-group';
import { useUserOptions } from '../api/get-user-options';

const FIELDS = ['name', 'description', 'user_ids'] as const;
type GroupInput = z.input<typeof ZCreateGroupBody>;
const resolver = withEmptyMessages(zodResolver(ZCreateGroupBody), { name: 'Enter a name for the group' });

/** Create or edit a group: its name, what it is for, and who is in it. */
export function GroupFormDialog({ group, onClose }: { group?: TGroup; onClose: () => void }) {
  const notify = useNotify();
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
  const bind = fieldBinder(form);
  const pending = createGroup.isPending || editGroup.isPending;
  const isEdit = group !== undefined;

  const onError = (title: string) => (error: Error) => {
    setServerErrors(form, error, FIELDS);
    notify.notifyFailure(title, error);
  };

  const onSubmit = form.handleSubmit((body) => {
    if (pending) return;
    if (isEdit) {
      editGroup.mutate(
        { id: group.id, body },
        {
          onSuccess: (saved) => {
            notify.success('Group updated', `${saved.name} was saved.`);
            onClose();
          },
          onError: onError('Failed to edit group!'),
        },
      );
    } else {
      createGroup.mutate(body, {
        onSuccess: (created) => {
          notify.success(
            'Group created',
            `${created.name} has ${created.member_count === 1 ? '1 member' : `${created.member_count} members`}.`,
          );
          onClose();
        },
        onError: onError('Failed to create group!'),
      });
    }
  });

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
      title={isEdit ? `Edit ${group.name}` : 'New group'}
      size="medium"
      onClose={onClose}
      pending={pending}
      onSubmit={onSubmit}
      name={bind('name')}
      description={bind('description')}
      submitLabel={isEdit ? 'Save changes' : 'Create group'}
    >
      <FormMultiPicker
        control={form.control}
        name="user_ids"
        label="Members"
        options={options}
        placeholder="Type a name or username"
        emptyText="No users yet."
        loading={users.isPending}
      />
    </NamedFormDialog>
  );
}
