import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Navigate } from 'react-router';
import { useNotify } from '../../../components/notifications/notification-context';
import { PageLoader } from '../../../components/page-loader';
import { isNotAuthenticated } from '../../../lib/api-error';
import { errorMessage } from '../../../lib/error-message';
import { type AuthRecord, getTemporalAuth } from '../../../lib/storage';
import { enable2faQuery } from '../api/enable-2fa';
import { AuthCard } from '../components/auth-card';
import { OtpForm } from '../components/otp-form';
import { TwoFactorEnrolment } from '../components/two-factor-enrolment';
import { ENABLE_2FA_FAILED, TWO_FACTOR_VERIFIED_MESSAGE } from '../lib/two-factor';
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
    <AuthCard
      title="Set up two-factor authentication"
      lead="Your company requires a second step at sign-in. Link an authenticator app to your account."
      wide
    >
      {flow.verified ? (
        <div className="alert alert--success" role="status">
          {TWO_FACTOR_VERIFIED_MESSAGE} Taking you to Quire…
        </div>
      ) : setup.isPending ? (
        <PageLoader label="Preparing your QR code…" />
      ) : setup.isError ? (
        <div className="alert alert--error" role="alert">
          <p>{ENABLE_2FA_FAILED}</p>
          <p>{errorMessage(setup.error)}</p>
          <button type="button" className="button button--ghost" onClick={() => setup.refetch()}>
            Try again
          </button>
        </div>
      ) : (
        <>
          <TwoFactorEnrolment qrCode={setup.data.qr_code} secret={setup.data.secret} />
          <OtpForm
            onCode={flow.submitCode}
            pending={flow.verifying}
            error={flow.codeError}
            submitLabel="Verify and continue"
            disabled={flow.cancelling}
          />
        </>
      )}
      {flow.verified ? null : (
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
      )}
    </AuthCard>
  );
}
