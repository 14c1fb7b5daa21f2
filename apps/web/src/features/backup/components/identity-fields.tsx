import { useId, useState } from 'react';

export interface Identity {
  password: string;
  code: string;
}

/** What is missing from the identity given: the password, and the code when two-factor is on. */
export function identityProblems(
  identity: Identity,
  twoFactor: boolean,
): Partial<Record<keyof Identity, string>> {
  return {
    ...(identity.password ? {} : { password: 'Enter your password' }),
    ...(twoFactor && !/^\d{6}$/.test(identity.code) ? { code: 'Enter the 6-digit code' } : {}),
  };
}

/** The identity as the backup calls take it: the password, and the code when one was typed. */
export const identityProof = (identity: Identity) => ({
  password: identity.password,
  ...(identity.code ? { code: identity.code } : {}),
});

/**
 * The admin's password again, and the 2FA code when the admin uses two-factor: what
 * downloading, uploading and restoring a backup ask for.
 */
export function IdentityFields({
  value,
  onChange,
  twoFactor,
  errors,
  disabled,
}: {
  value: Identity;
  onChange: (next: Identity) => void;
  twoFactor: boolean;
  errors: Partial<Record<keyof Identity, string>>;
  disabled?: boolean;
}) {
  const id = useId();
  return (
    <>
      <div className="field">
        <label htmlFor={`${id}-password`}>Your password</label>
        <input
          id={`${id}-password`}
          name="password"
          type="password"
          autoComplete="current-password"
          value={value.password}
          disabled={disabled}
          onChange={(e) => onChange({ ...value, password: e.target.value })}
          aria-invalid={errors.password ? true : undefined}
          aria-describedby={errors.password ? `${id}-password-error` : undefined}
        />
        {errors.password ? (
          <p className="field__error" id={`${id}-password-error`}>
            {errors.password}
          </p>
        ) : null}
      </div>
      {twoFactor ? (
        <div className="field">
          <label htmlFor={`${id}-code`}>Code from your authenticator app</label>
          <input
            id={`${id}-code`}
            name="code"
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={6}
            value={value.code}
            disabled={disabled}
            onChange={(e) => onChange({ ...value, code: e.target.value.replace(/\D/g, '') })}
            aria-invalid={errors.code ? true : undefined}
            aria-describedby={errors.code ? `${id}-code-error` : undefined}
          />
          {errors.code ? (
            <p className="field__error" id={`${id}-code-error`}>
              {errors.code}
            </p>
          ) : null}
        </div>
      ) : null}
    </>
  );
}

/**
 * The identity a backup dialog asks for, kept as it is typed: `problems()` says what is missing,
 * `proof()` is what the call takes, `fields(errors, disabled)` draws the fields.
 */
export function useIdentity(twoFactor: boolean) {
  const [identity, setIdentity] = useState<Identity>({ password: '', code: '' });
  return {
    problems: () => identityProblems(identity, twoFactor),
    proof: () => identityProof(identity),
    fields: (errors: Partial<Record<keyof Identity, string>>, disabled: boolean) => (
      <IdentityFields
        value={identity}
        onChange={setIdentity}
        twoFactor={twoFactor}
        errors={errors}
        disabled={disabled}
      />
    ),
  };
}
