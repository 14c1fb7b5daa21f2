import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, passwordProblems } from '@quire/contract';
import { useId, useState } from 'react';

export interface PasswordFieldProps {
  label: string;
  value: string;
  onChange: (value: string) => void;
  /** Whose password it is: the policy refuses one containing the username or e-mail. */
  username?: string;
  email?: string;
  error?: string;
  name?: string;
}

/** A new-password field with the policy as a live checklist under it (shared with the API). */
export function PasswordField({
  label,
  value,
  onChange,
  username,
  email,
  error,
  name = 'password',
}: PasswordFieldProps) {
  const id = useId();
  const [visible, setVisible] = useState(false);
  const problems = passwordProblems(value, { username, email });
  const typed = value.length > 0;
  const rules = [
    {
      label: `${PASSWORD_MIN_LENGTH} to ${PASSWORD_MAX_LENGTH} characters`,
      met: value.length >= PASSWORD_MIN_LENGTH && value.length <= PASSWORD_MAX_LENGTH,
    },
    { label: 'Does not contain the username or e-mail', met: !problems.some((p) => p.includes('username')) },
    { label: 'Not a common password', met: !problems.some((p) => p.includes('too common')) },
  ];
  const state = (met: boolean) => (!typed ? undefined : met ? 'is-met' : 'is-unmet');

  return (
    <div className="field">
      <label htmlFor={`${id}-input`}>{label}</label>
      <input
        id={`${id}-input`}
        name={name}
        type={visible ? 'text' : 'password'}
        autoComplete="new-password"
        value={value}
        onChange={(e) => onChange(e.target.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={`${id}-policy${error ? ` ${id}-error` : ''}`}
      />
      <label className="checkbox">
        <input type="checkbox" checked={visible} onChange={(e) => setVisible(e.target.checked)} />
        <span>Show password</span>
      </label>
      <ul className="checklist" id={`${id}-policy`} aria-label="Password rules">
        {rules.map((rule) => (
          <li key={rule.label} className={state(rule.met)}>
            {rule.label}
            {typed ? <span className="sr-only">{rule.met ? ' (met)' : ' (not met)'}</span> : null}
          </li>
        ))}
      </ul>
      {error ? (
        <p className="field__error" id={`${id}-error`}>
          {error}
        </p>
      ) : null}
    </div>
  );
}
