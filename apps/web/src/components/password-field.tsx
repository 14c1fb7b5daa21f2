import { PASSWORD_MIN_LENGTH, type PasswordContext, passwordProblems } from '@quire/contract';
import { useState } from 'react';
import { Field } from './form-field';

/**
 * The policy's rules, in the API's own words (`passwordProblems`): the same three lines
 * wherever a new password is typed, each marked met or not met as the person types.
 */
export const PASSWORD_RULES = [
  { key: 'length', label: `Use at least ${PASSWORD_MIN_LENGTH} characters`, problem: /^Use at (least|most)/ },
  {
    key: 'personal',
    label: 'Do not use your username or e-mail in the password',
    problem: /username or e-mail/,
  },
  // Worded as what to reach (issue 10, item 3); the problem's own words show when it is broken.
  { key: 'common', label: 'Not a common password', problem: /too common/ },
] as const;

/** Whether a message is one of the checklist's rules (then the checklist shows it). */
export const isPolicyProblem = (message: string | undefined) =>
  message !== undefined && PASSWORD_RULES.some((r) => r.problem.test(message));

export interface PasswordPolicyProps {
  password: string;
  /** Whose password it is: the policy refuses one containing the username or e-mail. */
  context: PasswordContext;
  id?: string;
}

/** The password policy (shared with the API), checked live as the person types. */
export function PasswordPolicy({ password, context, id }: PasswordPolicyProps) {
  const typed = password !== '';
  const problems = typed ? passwordProblems(password, context) : [];
  return (
    <ul className="checklist" id={id} aria-label="Password policy">
      {PASSWORD_RULES.map((rule) => {
        const problem = problems.find((p) => rule.problem.test(p));
        const met = problem === undefined;
        // The list of common passwords holds long ones only: a password still too short is
        // not called "not common" (the length line already says what is missing).
        const judged =
          typed && !(rule.key === 'common' && met && problems.some((p) => /^Use at least/.test(p)));
        return (
          <li key={rule.key} className={!judged ? undefined : met ? 'is-met' : 'is-unmet'}>
            {/* "Use at most 256 characters" replaces the length line when that is the problem. */}
            {problem && problem !== rule.label ? problem : rule.label}
            {judged ? <span className="sr-only">{met ? ' (met)' : ' (not met)'}</span> : null}
          </li>
        );
      })}
    </ul>
  );
}

export interface PasswordFieldProps {
  label: string;
  value: string;
  onChange: (value: string) => void;
  context: PasswordContext;
  error?: string | undefined;
  name?: string;
  disabled?: boolean | undefined;
  /** Offer a "Show password" switch. */
  revealable?: boolean;
}

/** A new-password input with the policy as a live checklist under it. */
export function PasswordField({
  label,
  value,
  onChange,
  context,
  error,
  name = 'password',
  disabled,
  revealable = false,
}: PasswordFieldProps) {
  const [visible, setVisible] = useState(false);
  // A rule of the policy is shown once, in the checklist (marked not met), not again as an
  // error; a refusal the checklist does not see (the server's own verdict) shows as the error.
  const ruleBroken =
    isPolicyProblem(error) && value !== '' && passwordProblems(value, context).includes(error ?? '');
  return (
    <Field
      label={label}
      error={ruleBroken ? undefined : error}
      invalid={ruleBroken}
      hint={<PasswordPolicy password={value} context={context} />}
    >
      {(control) => (
        <>
          <input
            {...control}
            name={name}
            type={visible ? 'text' : 'password'}
            autoComplete="new-password"
            value={value}
            onChange={(e) => onChange(e.target.value)}
            disabled={disabled}
          />
          {revealable ? (
            <label className="checkbox">
              <input type="checkbox" checked={visible} onChange={(e) => setVisible(e.target.checked)} />
              <span>Show password</span>
            </label>
          ) : null}
        </>
      )}
    </Field>
  );
}
