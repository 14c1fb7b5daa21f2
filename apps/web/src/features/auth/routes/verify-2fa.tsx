import { useState } from 'react';
import { Navigate } from 'react-router';
import { getTemporalAuth } from '../../../lib/storage';
import { SignInCodeForm, TwoFactorSignInCard } from '../components/two-factor-sign-in-card';
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
    <TwoFactorSignInCard
      title="Two-factor verification"
      lead="Enter the 6-digit code from your authenticator app."
      flow={flow}
    >
      <SignInCodeForm flow={flow} autoFocus />
    </TwoFactorSignInCard>
  );
}
