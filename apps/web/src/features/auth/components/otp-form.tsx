import { ZOtpCode } from '@quire/contract';
import { type FormEvent, type ReactNode, useEffect, useRef, useState } from 'react';
import { FormField } from '../../../components/form-field';
import { PendingButton } from '../../../components/pending-button';

/**
 * The 6-digit code field of an authenticator app, in its own form. `error` is the server's
 * verdict on the last code (shown beside the field, which gets focus again).
 */
export function OtpForm({
  onCode,
  pending,
  error,
  submitLabel = 'Verify',
  pendingLabel = 'Verifying…',
  autoFocus = false,
  disabled = false,
  children,
}: {
  onCode: (code: string) => void;
  pending: boolean;
  error?: string | undefined;
  submitLabel?: string;
  pendingLabel?: string;
  autoFocus?: boolean;
  disabled?: boolean;
  /** Extra actions beside the submit button. */
  children?: ReactNode;
}) {
  const [code, setCode] = useState('');
  const [localError, setLocalError] = useState<string | undefined>();
  const inputRef = useRef<HTMLFormElement>(null);

  useEffect(() => {
    if (autoFocus) inputRef.current?.querySelector<HTMLInputElement>('input[name="code"]')?.focus();
  }, [autoFocus]);

  useEffect(() => {
    if (error) {
      const input = inputRef.current?.querySelector<HTMLInputElement>('input[name="code"]');
      input?.focus();
      input?.select();
    }
  }, [error]);

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (pending || disabled) return;
    const parsed = ZOtpCode.safeParse(code.replace(/\s+/g, ''));
    if (!parsed.success) {
      setLocalError(parsed.error.issues[0]?.message);
      inputRef.current?.querySelector<HTMLInputElement>('input[name="code"]')?.focus();
      return;
    }
    setLocalError(undefined);
    onCode(parsed.data);
  }

  return (
    <form ref={inputRef} className="form" onSubmit={onSubmit} noValidate aria-busy={pending}>
      <FormField
        label="Verification code"
        name="code"
        type="text"
        inputMode="numeric"
        autoComplete="one-time-code"
        pattern="[0-9]*"
        maxLength={7}
        inputClassName="otp-input"
        value={code}
        onChange={(e) => {
          setCode(e.target.value.replace(/[^\d ]/g, ''));
          setLocalError(undefined);
        }}
        error={localError ?? error}
        hint="The 6-digit code your authenticator app shows now."
        disabled={disabled}
      />
      <div className="auth-actions">
        <PendingButton pending={pending} pendingLabel={pendingLabel} disabled={disabled}>
          {submitLabel}
        </PendingButton>
        {children}
      </div>
    </form>
  );
}
