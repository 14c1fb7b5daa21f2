import { useState } from 'react';
import { Navigate } from 'react-router';
import { getTemporalAuth } from '../../../lib/storage';
import { AuthCard } from '../components/auth-card';
import { OtpForm } from '../components/otp-form';
import { TWO_FACTOR_VERIFIED_MESSAGE } from '../lib/two-factor';
import { useTwoFactorSignIn } from '../lib/use-two-factor-sign-in';

/** /auth/verify-2fa: the user has 2FA; the sign-in waits for a code (spec §2, §4). */
export function VerifyTwoFactorPage() {
  // Read once: a successful verification moves the login out of temporal_auth.
  const [pending] = useState(getTemporalAuth);
  if (!pending) return <Navigate to="/login" replace />;
  return <VerifyTwoFactor />;
}

function VerifyTwoFactor() {
  const flow = useTwoFactorSignIn();
  return (
    <AuthCard title="Two-factor verification" lead="Enter the 6-digit code from your authenticator app.">
      {flow.verified ? (
        <div className="alert alert--success" role="status">
          {TWO_FACTOR_VERIFIED_MESSAGE} Taking you to Quire…
        </div>
      ) : (
        <>
          <OtpForm
            onCode={flow.submitCode}
            pending={flow.verifying}
            error={flow.codeError}
            autoFocus
            disabled={flow.cancelling}
          />
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
