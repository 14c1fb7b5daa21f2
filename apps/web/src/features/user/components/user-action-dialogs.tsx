import type { TAdminUser } from '@quire/contract';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { useNotify } from '../../../components/notifications/notification-context';
import { useActivateUser } from '../api/activate-user';
import { useClearTwoFactor } from '../api/clear-two-factor';
import { useDeactivateUser } from '../api/deactivate-user';
import { useDeleteUser } from '../api/delete-user';

export type StatusAction = 'activate' | 'deactivate' | 'delete' | 'reset2fa';

const who = (user: TAdminUser) => `${user.name || user.username} (${user.username})`;

/** The confirmation before a status change, and the call behind it. */
export function UserActionDialog({
  action,
  user,
  onClose,
}: {
  action: StatusAction;
  user: TAdminUser;
  onClose: () => void;
}) {
  const notify = useNotify();
  const activate = useActivateUser();
  const deactivate = useDeactivateUser();
  const remove = useDeleteUser();
  const clear2fa = useClearTwoFactor();
  const mutation = { activate, deactivate, delete: remove, reset2fa: clear2fa }[action];
  const name = user.name || user.username;

  const copy = {
    activate: {
      title: `Activate ${who(user)}?`,
      body: <p>{name} can sign in again with their current password.</p>,
      confirm: 'Activate',
      pending: 'Activating…',
      done: ['User activated', `${name} can sign in again.`],
      failed: 'Failed to activate user!',
      tone: 'default' as const,
    },
    deactivate: {
      title: `Deactivate ${who(user)}?`,
      body: <p>{name} is signed out at once and cannot sign in until the account is activated again.</p>,
      confirm: 'Deactivate',
      pending: 'Deactivating…',
      done: ['User deactivated', `${name} is signed out and cannot sign in.`],
      failed: 'Failed to deactivate user!',
      tone: 'danger' as const,
    },
    delete: {
      title: `Delete ${who(user)}?`,
      body: (
        <>
          <p>
            {name} is signed out and can no longer sign in, and the account leaves the user lists and pickers.
          </p>
          <p className="muted">
            Deleting is soft: the account's history, files and audit trail are kept, its username and e-mail
            stay taken, and it can be activated again from the “Deleted” filter.
          </p>
        </>
      ),
      confirm: 'Delete user',
      pending: 'Deleting…',
      done: ['User deleted', `${name} was deleted; their history is kept.`],
      failed: 'Failed to delete user!',
      tone: 'danger' as const,
    },
    reset2fa: {
      title: `Reset two-factor authentication for ${who(user)}?`,
      body: <p>{name} sets up two-factor authentication again at their next sign-in.</p>,
      confirm: 'Reset 2FA',
      pending: 'Resetting…',
      done: ['Two-factor authentication reset', `${name} sets it up again at the next sign-in.`],
      failed: 'Failed to reset 2FA!',
      tone: 'danger' as const,
    },
  }[action];

  const confirm = () =>
    mutation.mutate(user.id, {
      onSuccess: () => {
        notify.success(copy.done[0]!, copy.done[1]);
        onClose();
      },
      onError: (error) => notify.notifyFailure(copy.failed, error),
    });

  return (
    <ConfirmDialog
      title={copy.title}
      confirmLabel={copy.confirm}
      pendingLabel={copy.pending}
      tone={copy.tone}
      pending={mutation.isPending}
      onConfirm={confirm}
      onCancel={onClose}
    >
      {copy.body}
    </ConfirmDialog>
  );
}
