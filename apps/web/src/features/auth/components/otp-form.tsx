import { ZOtpCode } from '@quire/contract';
import { type ChangeEvent, type ReactNode, useEffect, useRef } from 'react';
import { useForm } from 'react-hook-form';
import { FormField } from '../../../components/form-field';
import { PendingButton } from '../../../components/pending-button';
import { checkResolver } from '../../../lib/form';

const codeInputOf = (form: HTMLFormElement | null) =>
  form?.querySelector<HTMLInputElement>('input[name="code"]');

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
  const inputRef = useRef<HTMLFormElement>(null);
  const form = useForm<{ code: string }, unknown, { code: string }>({
    defaultValues: { code: '' },
    // The contract's ZOtpCode, spaces removed first (apps show "123 456").
    resolver: checkResolver(({ code }) => ({
      code: ZOtpCode.safeParse(code.replace(/\s+/g, '')).error?.issues[0]?.message,
    })),
  });
  const localError = form.formState.errors.code?.message;
  const codeInput = () => codeInputOf(inputRef.current);

  useEffect(() => {
    if (autoFocus) codeInputOf(inputRef.current)?.focus();
  }, [autoFocus]);

  useEffect(() => {
    if (error) {
      codeInputOf(inputRef.current)?.focus();
      codeInputOf(inputRef.current)?.select();
    }
  }, [error]);

  const onSubmit = form.handleSubmit(
    ({ code }) => {
      if (pending || disabled) return;
      onCode(code.replace(/\s+/g, ''));
    },
    () => codeInput()?.focus(),
  );

  return (
    <form ref={inputRef} className="form" onSubmit={onSubmit} noValidate aria-busy={pending}>
      <FormField
        label="Verification code"
        type="text"
        inputMode="numeric"
        autoComplete="one-time-code"
        pattern="[0-9]*"
        maxLength={7}
        inputClassName="otp-input"
        {...form.register('code', {
          // Digits and spaces only, as they are typed.
          onChange: (e: ChangeEvent<HTMLInputElement>) => {
            const kept = e.target.value.replace(/[^\d ]/g, '');
            if (kept !== e.target.value) form.setValue('code', kept);
            form.clearErrors('code');
          },
        })}
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
