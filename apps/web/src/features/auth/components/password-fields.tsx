import { type PasswordContext, passwordProblems } from '@quire/contract';
import type { FieldValues, Path, PathValue, UseFormReturn } from 'react-hook-form';
import { FormField } from '../../../components/form-field';
import { PasswordField } from '../../../components/password-field';

export const PASSWORDS_DO_NOT_MATCH = 'The passwords do not match';

/** What is wrong with a new password and its confirmation, before anything is sent. */
export function newPasswordErrors(
  password: string,
  confirmation: string,
  context: PasswordContext,
): { password?: string; confirmation?: string } {
  const problems = password === '' ? ['Enter a password'] : passwordProblems(password, context);
  return {
    ...(problems.length > 0 ? { password: problems[0] } : {}),
    ...(confirmation === '' && password !== ''
      ? { confirmation: 'Enter the password again' }
      : confirmation !== password
        ? { confirmation: PASSWORDS_DO_NOT_MATCH }
        : {}),
  };
}

/** PasswordFields' onPassword/onConfirmation for a react-hook-form form: set the value, clear its error. */
export function passwordSetters<F extends FieldValues>(
  form: UseFormReturn<F>,
  password: Path<F>,
  confirmation: Path<F>,
) {
  const set = (name: Path<F>) => (value: string) => {
    form.setValue(name, value as PathValue<F, Path<F>>);
    form.clearErrors(name);
  };
  return { onPassword: set(password), onConfirmation: set(confirmation) };
}

/** New password and its confirmation, with the policy shown live. */
export function PasswordFields({
  password,
  confirmation,
  onPassword,
  onConfirmation,
  context,
  errors,
  passwordName = 'password',
  confirmationName = 'password_confirmation',
  passwordLabel = 'New password',
  disabled,
}: {
  password: string;
  confirmation: string;
  onPassword: (value: string) => void;
  onConfirmation: (value: string) => void;
  context: PasswordContext;
  errors: { password?: string | undefined; confirmation?: string | undefined };
  passwordName?: string;
  confirmationName?: string;
  passwordLabel?: string;
  disabled?: boolean;
}) {
  // Live, but not while the confirmation is still a correct beginning of the password.
  const mismatch =
    confirmation !== '' &&
    confirmation !== password &&
    (!password.startsWith(confirmation) || confirmation.length >= password.length)
      ? PASSWORDS_DO_NOT_MATCH
      : undefined;
  return (
    <>
      <PasswordField
        label={passwordLabel}
        name={passwordName}
        value={password}
        onChange={onPassword}
        error={errors.password}
        context={context}
        disabled={disabled}
      />
      <FormField
        label="Confirm new password"
        name={confirmationName}
        type="password"
        autoComplete="new-password"
        value={confirmation}
        onChange={(e) => onConfirmation(e.target.value)}
        error={errors.confirmation ?? mismatch}
        disabled={disabled}
      />
    </>
  );
}
