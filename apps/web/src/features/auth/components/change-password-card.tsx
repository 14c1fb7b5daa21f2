import type { TUser } from '@quire/contract';
import { useForm } from 'react-hook-form';
import { FormField } from '../../../components/form-field';
import { PendingButton } from '../../../components/pending-button';
import { checkResolver } from '../../../lib/form';
import { useFormSubmit } from '../../../lib/use-form-submit';
import { useUpdatePassword } from '../api/update-password';
import { newPasswordErrors, PasswordFields, passwordSetters } from './password-fields';

const PASSWORD_FIELDS = ['current_password', 'new_password', 'password_confirmation'] as const;
type PasswordField = (typeof PASSWORD_FIELDS)[number];

/** The profile's password card: the current password, then a new one checked against the policy. */
export function ChangePasswordCard({ user }: { user: TUser }) {
  const update = useUpdatePassword();
  const form = useForm<Record<PasswordField, string>>({
    defaultValues: { current_password: '', new_password: '', password_confirmation: '' },
    // The policy the API applies (shared through the contract), checked before sending.
    resolver: checkResolver((values) => {
      const local = newPasswordErrors(values.new_password, values.password_confirmation, user);
      return {
        current_password: values.current_password === '' ? 'Enter your current password' : undefined,
        new_password: local.password,
        password_confirmation: local.confirmation,
      };
    }),
  });
  const errors = {
    current_password: form.formState.errors.current_password?.message,
    new_password: form.formState.errors.new_password?.message,
    password_confirmation: form.formState.errors.password_confirmation?.message,
  };
  const [password, confirmation] = form.watch(['new_password', 'password_confirmation']);

  const onSubmit = useFormSubmit(form, update, {
    fields: PASSWORD_FIELDS,
    failure: 'Failed to change password',
    told: (result) => ['Password changed', result.message ?? 'Your password has been changed'],
    onDone: () => form.reset(),
    whilePending: 'ignore',
    focusFirst: true,
  });

  return (
    <section className="card" aria-labelledby="profile-password">
      <h2 id="profile-password">Change password</h2>
      <p className="muted">Your other sessions are signed out when the password changes.</p>
      <form className="form" onSubmit={onSubmit} noValidate aria-busy={update.isPending}>
        <input type="hidden" name="username" autoComplete="username" defaultValue={user.username} />
        <FormField
          label="Current password"
          type="password"
          autoComplete="current-password"
          error={errors.current_password}
          {...form.register('current_password', { onChange: () => form.clearErrors('current_password') })}
        />
        <PasswordFields
          password={password}
          confirmation={confirmation}
          {...passwordSetters(form, 'new_password', 'password_confirmation')}
          passwordName="new_password"
          context={user}
          errors={{ password: errors.new_password, confirmation: errors.password_confirmation }}
        />
        <div className="form-actions">
          <PendingButton pending={update.isPending} pendingLabel="Changing…">
            Change password
          </PendingButton>
        </div>
      </form>
    </section>
  );
}
