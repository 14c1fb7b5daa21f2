import { passwordProblems, type TAdminUser } from '@quire/contract';
import { type FormEvent, useState } from 'react';
import { Dialog } from '../../../components/dialog';
import { useNotify } from '../../../components/notifications/notification-context';
import { PasswordField } from '../../../components/password-field';
import { apiFieldErrors } from '../../../lib/field-errors';
import { useResetPassword } from '../api/reset-password';

/** An administrator sets a new password for someone; the policy is shown as they type. */
export function ResetPasswordDialog({ user, onClose }: { user: TAdminUser; onClose: () => void }) {
  const notify = useNotify();
  const reset = useResetPassword();
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string>();
  const who = user.name || user.username;

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (reset.isPending) return;
    const problems = password ? passwordProblems(password, user) : ['Enter a password'];
    if (problems.length > 0) {
      setError(problems.join(', '));
      event.currentTarget.querySelector<HTMLInputElement>('[name="password"]')?.focus();
      return;
    }
    reset.mutate(
      { user_id: user.id, password },
      {
        onSuccess: () => {
          notify.success(
            'Password reset',
            `${who} is signed out everywhere and signs in with the new password.`,
          );
          onClose();
        },
        onError: (e) => {
          setError(apiFieldErrors(e).password);
          notify.notifyFailure('Failed to reset password!', e);
        },
      },
    );
  }

  return (
    <Dialog
      title={`Reset password for ${who}`}
      description={`${user.username} · ${user.email}. They are signed out everywhere once it is set.`}
      onClose={onClose}
      busy={reset.isPending}
      size="small"
    >
      <form className="form" onSubmit={onSubmit} noValidate aria-busy={reset.isPending}>
        <PasswordField
          label="New password"
          value={password}
          onChange={(v) => {
            setPassword(v);
            setError(undefined);
          }}
          context={user}
          error={error}
          revealable
        />
        <div className="form-actions">
          <button type="button" className="button button--ghost" onClick={onClose} disabled={reset.isPending}>
            Cancel
          </button>
          <button type="submit" className="button button--primary" disabled={reset.isPending}>
            {reset.isPending ? (
              <>
                <span className="spinner spinner--small" aria-hidden="true" /> Setting…
              </>
            ) : (
              'Set password'
            )}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
