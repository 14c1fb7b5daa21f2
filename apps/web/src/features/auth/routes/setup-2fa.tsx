import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Navigate } from 'react-router';
import { Button } from '../../../components/button';
import { useNotify } from '../../../components/notifications/notification-context';
import { PageLoader } from '../../../components/page-loader';
import { isNotAuthenticated } from '../../../lib/api-error';
import { errorMessage } from '../../../lib/error-message';
import { type AuthRecord, getTemporalAuth } from '../../../lib/storage';
import { enable2faQuery } from '../api/enable-2fa';
import { TwoFactorEnrolment } from '../components/two-factor-enrolment';
import { SignInCodeForm, TwoFactorSignInCard } from '../components/two-factor-sign-in-card';
import { ENABLE_2FA_FAILED } from '../lib/two-factor';
import { useTwoFactorSignIn } from '../lib/use-two-factor-sign-in';

/** /auth/setup-2fa: the company requires 2FA and this user has none yet (spec §2, §4). */
export function SetupTwoFactorPage() {
  // Read once: a successful verification moves the login out of temporal_auth.
  const [pending] = useState(getTemporalAuth);
  if (!pending) return <Navigate to="/login" replace />;
  return <SetupTwoFactor pending={pending} />;
}

function SetupTwoFactor({ pending }: { pending: AuthRecord }) {
  const notify = useNotify();
  const flow = useTwoFactorSignIn();
  const setup = useQuery(enable2faQuery(pending.data.access_token));

  const { error, errorUpdatedAt } = setup;
  // biome-ignore lint/correctness/useExhaustiveDependencies: once per failure
  useEffect(() => {
    if (!error) return;
    notify.notifyFailure(ENABLE_2FA_FAILED, error);
    if (isNotAuthenticated(error)) flow.restart();
  }, [error, errorUpdatedAt]);

  return (
    <TwoFactorSignInCard
      title="Set up two-factor authentication"
      lead="Your company requires a second step at sign-in. Link an authenticator app to your account."
      wide
      flow={flow}
    >
      {setup.isPending ? (
        <PageLoader label="Preparing your QR code…" />
      ) : setup.isError ? (
        <div className="alert alert--error" role="alert">
          <p>{ENABLE_2FA_FAILED}</p>
          <p>{errorMessage(setup.error)}</p>
          <Button variant="ghost" onClick={() => setup.refetch()}>
            Try again
          </Button>
        </div>
      ) : (
        <>
          <TwoFactorEnrolment qrCode={setup.data.qr_code} secret={setup.data.secret} />
          <SignInCodeForm flow={flow} submitLabel="Verify and continue" />
        </>
      )}
    </TwoFactorSignInCard>
  );
}
