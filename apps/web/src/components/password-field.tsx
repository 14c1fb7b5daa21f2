import {
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  type PasswordContext,
  passwordProblems,
} from '@quire/contract';
import { useState } from 'react';
import { Field } from './form-field';

/** The policy's rules, each matched by the problem `passwordProblems` names for it. */
const RULES = [
  {
    key: 'length',
    // Named problems say "Use at most …" themselves; a bare rule name gives both limits.
    label: (showProblems: boolean) =>
      showProblems
        ? `At least ${PASSWORD_MIN_LENGTH} characters`
        : `${PASSWORD_MIN_LENGTH} to ${PASSWORD_MAX_LENGTH} characters`,
    problem: /^Use at (least|most)/,
  },
  {
    key: 'personal',
    label: (showProblems: boolean) =>
      showProblems ? 'Not your username or e-mail' : 'Does not contain the username or e-mail',
    problem: /username or e-mail/,
  },
  { key: 'common', label: () => 'Not a common password', problem: /too common/ },
];

export interface PasswordPolicyProps {
  password: string;
  /** Whose password it is: the policy refuses one containing the username or e-mail. */
  context: PasswordContext;
  /**
   * true: an unmet rule reads as the policy's own words for the problem ("Use at least 10
   * characters"); false: the rules keep their names, with met / not met for screen readers.
   */
  showProblems?: boolean;
  id?: string;
}

/** The password policy (shared with the API), checked live as the person types. */
export function PasswordPolicy({ password, context, showProblems = true, id }: PasswordPolicyProps) {
  const typed = password !== '';
  const problems = typed ? passwordProblems(password, context) : [];
  const other = problems.filter((p) => !RULES.some((r) => r.problem.test(p)));
  return (
    <ul className="checklist" id={id} aria-label="Password policy">
      {RULES.map((rule) => {
        const problem = problems.find((p) => rule.problem.test(p));
        const met = problem === undefined;
        return (
          <li key={rule.key} className={!typed ? undefined : met ? 'is-met' : 'is-unmet'}>
            {showProblems ? (problem ?? rule.label(true)) : rule.label(false)}
            {typed && !showProblems ? <span className="sr-only">{met ? ' (met)' : ' (not met)'}</span> : null}
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

export interface PasswordFieldProps {
  label: string;
  value: string;
  onChange: (value: string) => void;
  context: PasswordContext;
  error?: string | undefined;
  name?: string;
  disabled?: boolean | undefined;
  showProblems?: boolean;
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
  showProblems = true,
  revealable = false,
}: PasswordFieldProps) {
  const [visible, setVisible] = useState(false);
  return (
    <Field
      label={label}
      error={error}
      hint={<PasswordPolicy password={value} context={context} showProblems={showProblems} />}
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
