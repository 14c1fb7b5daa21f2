import { passwordProblems, type TAdminUser } from '@quire/contract';
import { Controller, useForm } from 'react-hook-form';
import { Dialog } from '../../../components/dialog';
import { DialogActions } from '../../../components/dialog-actions';
import { PasswordField } from '../../../components/password-field';
import { checkResolver } from '../../../lib/form';
import { useFormSubmit } from '../../../lib/use-form-submit';
import { useResetPassword } from '../api/reset-password';

/** An administrator sets a new password for someone; the policy is shown as they type. */
export function ResetPasswordDialog({ user, onClose }: { user: TAdminUser; onClose: () => void }) {
  const reset = useResetPassword();
  const who = user.name || user.username;
  const form = useForm<{ password: string }>({
    defaultValues: { password: '' },
    // The policy the API applies (shared through the contract), checked before sending.
    resolver: checkResolver(({ password }) => {
      const problems = password ? passwordProblems(password, user) : ['Enter a password'];
      return { password: problems.join(', ') || undefined };
    }),
  });

  const onSubmit = useFormSubmit(form, reset, {
    fields: ['password'],
    failure: 'Failed to reset password!',
    body: ({ password }) => ({ user_id: user.id, password }),
    told: () => ['Password reset', `${who} is signed out everywhere and signs in with the new password.`],
    onDone: onClose,
    whilePending: 'ignore',
    focusFirst: true,
  });

  return (
    <Dialog
      title={`Reset password for ${who}`}
      description={`${user.username} · ${user.email}. They are signed out everywhere once it is set.`}
      onClose={onClose}
      busy={reset.isPending}
      size="small"
    >
      <form className="form" onSubmit={onSubmit} noValidate aria-busy={reset.isPending}>
        <Controller
          control={form.control}
          name="password"
          render={({ field, fieldState }) => (
            <PasswordField
              label="New password"
              value={field.value}
              onChange={(v) => {
                field.onChange(v);
                form.clearErrors('password');
              }}
              context={user}
              error={fieldState.error?.message}
              revealable
            />
          )}
        />
        <DialogActions onCancel={onClose} pending={reset.isPending} pendingLabel="Setting…">
          Set password
        </DialogActions>
      </form>
    </Dialog>
  );
}
