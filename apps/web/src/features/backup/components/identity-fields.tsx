import { useState } from 'react';
import { FormField } from '../../../components/form-field';

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
  return (
    <>
      <FormField
        label="Your password"
        error={errors.password}
        name="password"
        type="password"
        autoComplete="current-password"
        value={value.password}
        disabled={disabled}
        onChange={(e) => onChange({ ...value, password: e.target.value })}
      />
      {twoFactor ? (
        <FormField
          label="Code from your authenticator app"
          error={errors.code}
          name="code"
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={6}
          value={value.code}
          disabled={disabled}
          onChange={(e) => onChange({ ...value, code: e.target.value.replace(/\D/g, '') })}
        />
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
