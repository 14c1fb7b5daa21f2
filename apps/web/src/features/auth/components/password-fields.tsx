import { type PasswordContext, passwordProblems } from '@quire/contract';
import { FormField } from './form-field';

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

/** The policy's rules, each matched by the start of the problem `passwordProblems` names. */
const RULES = [
  { label: 'At least 10 characters', problem: /^Use at (least|most)/ },
  { label: 'Not your username or e-mail', problem: /username or e-mail/ },
  { label: 'Not a common password', problem: /too common/ },
];

/** The password policy, checked live as the person types. */
export function PasswordPolicy({ password, context }: { password: string; context: PasswordContext }) {
  const problems = password === '' ? [] : passwordProblems(password, context);
  const other = problems.filter((p) => !RULES.some((r) => r.problem.test(p)));
  const status = (failed: boolean) => (password === '' ? undefined : failed ? 'is-unmet' : 'is-met');
  return (
    <ul className="checklist" aria-label="Password policy">
      {RULES.map((rule) => {
        const problem = problems.find((p) => rule.problem.test(p));
        return (
          <li key={rule.label} className={status(problem !== undefined)}>
            {problem ?? rule.label}
          </li>
        );
      })}
      {other.map((p) => (
        <li key={p} className="is-unmet">
          {p}
        </li>
      ))}
    </ul>
  );
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
      <FormField
        label={passwordLabel}
        name={passwordName}
        type="password"
        autoComplete="new-password"
        value={password}
        onChange={(e) => onPassword(e.target.value)}
        error={errors.password}
        hint={<PasswordPolicy password={password} context={context} />}
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
