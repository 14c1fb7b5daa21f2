import type { ReactNode } from 'react';
import { useForm } from 'react-hook-form';
import { Button } from '../../../components/button';
import { FormField } from '../../../components/form-field';
import { useLocationToast } from '../../../components/notifications/use-location-toast';
import { PendingButton } from '../../../components/pending-button';
import { checkResolver } from '../../../lib/form';
import { TWO_FACTOR_VERIFIED_MESSAGE } from '../lib/two-factor';
import type { useTwoFactorSignIn } from '../lib/use-two-factor-sign-in';
import { AuthCard } from './auth-card';
import { OtpForm } from './otp-form';
import { RecoveryCodes } from './recovery-codes';

type TwoFactorFlow = ReturnType<typeof useTwoFactorSignIn>;

/**
 * The card of /auth/setup-2fa and /auth/verify-2fa: the page's own content and a Cancel that
 * gives the sign-in up; once verified, only the success message while it moves on.
 */
export function TwoFactorSignInCard({
  title,
  lead,
  wide,
  flow,
  children,
}: {
  title: string;
  lead: string;
  wide?: boolean;
  flow: TwoFactorFlow;
  children: ReactNode;
}) {
  // "Finish signing in with your authenticator app first", when sent back here.
  useLocationToast();
  return (
    <AuthCard title={title} lead={lead} wide={wide}>
      {flow.verified ? (
        <div className="alert alert--success" role="status">
          {TWO_FACTOR_VERIFIED_MESSAGE} Taking you to Quire…
        </div>
      ) : flow.newCodes ? (
        <RecoveryCodes codes={flow.newCodes}>
          <Button onClick={flow.proceed}>I have saved them, continue</Button>
        </RecoveryCodes>
      ) : (
        <>
          {children}
          <div className="auth-page__footer">
            <button
              type="button"
              className="button button--ghost button--block"
              onClick={flow.cancel}
              disabled={flow.cancelling || flow.verifying}
            >
              {flow.cancelling ? 'Cancelling…' : 'Cancel'}
            </button>
          </div>
        </>
      )}
    </AuthCard>
  );
}

/** The code form of a waiting sign-in. */
export function SignInCodeForm({
  flow,
  submitLabel,
  autoFocus,
}: {
  flow: TwoFactorFlow;
  submitLabel?: string;
  autoFocus?: boolean;
}) {
  return (
    <OtpForm
      onCode={flow.submitCode}
      pending={flow.verifying}
      error={flow.codeError}
      disabled={flow.cancelling}
      {...(submitLabel ? { submitLabel } : {})}
      {...(autoFocus ? { autoFocus } : {})}
    />
  );
}

/** A recovery code in place of the authenticator's code (one of the ten given at setup). */
export function RecoveryCodeForm({ flow, onBack }: { flow: TwoFactorFlow; onBack: () => void }) {
  const form = useForm<{ recovery_code: string }>({
    defaultValues: { recovery_code: '' },
    resolver: checkResolver(({ recovery_code }) => ({
      recovery_code: recovery_code.trim() ? undefined : 'Enter one of your recovery codes',
    })),
  });
  const error = form.formState.errors.recovery_code?.message ?? flow.recoveryError;
  const onSubmit = form.handleSubmit(({ recovery_code }) => {
    if (!flow.verifying) flow.submitRecoveryCode(recovery_code.trim());
  });
  return (
    <form className="form" onSubmit={onSubmit} noValidate aria-busy={flow.verifying}>
      <FormField
        label="Recovery code"
        autoComplete="off"
        autoFocus
        spellCheck={false}
        maxLength={64}
        error={error}
        hint="One of the codes you saved when you set up two-factor authentication, such as abcde-23456. Each works once."
        {...form.register('recovery_code', { onChange: () => form.clearErrors('recovery_code') })}
      />
      <div className="auth-actions">
        <PendingButton pending={flow.verifying} pendingLabel="Verifying…" disabled={flow.cancelling}>
          Sign in with the recovery code
        </PendingButton>
        <Button variant="link" onClick={onBack}>
          Use your authenticator app instead
        </Button>
      </div>
    </form>
  );
}
