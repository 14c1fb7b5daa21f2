import type { ReactNode } from 'react';
import { useLocationToast } from '../../../components/notifications/use-location-toast';
import { TWO_FACTOR_VERIFIED_MESSAGE } from '../lib/two-factor';
import type { useTwoFactorSignIn } from '../lib/use-two-factor-sign-in';
import { AuthCard } from './auth-card';
import { OtpForm } from './otp-form';

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
