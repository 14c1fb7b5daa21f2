import { useState } from 'react';
import { Navigate } from 'react-router';
import { Button } from '../../../components/button';
import { getTemporalAuth } from '../../../lib/storage';
import { RecoveryCodeForm, SignInCodeForm, TwoFactorSignInCard } from '../components/two-factor-sign-in-card';
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
  const [recovering, setRecovering] = useState(false);
  return (
    <TwoFactorSignInCard
      title="Two-factor verification"
      lead={
        recovering
          ? 'Enter one of your recovery codes.'
          : 'Enter the 6-digit code from your authenticator app.'
      }
      flow={flow}
    >
      {recovering ? (
        <RecoveryCodeForm flow={flow} onBack={() => setRecovering(false)} />
      ) : (
        <>
          <SignInCodeForm flow={flow} autoFocus />
          <Button variant="link" onClick={() => setRecovering(true)}>
            Use a recovery code
          </Button>
        </>
      )}
    </TwoFactorSignInCard>
  );
}
