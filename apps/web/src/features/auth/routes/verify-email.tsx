import { Link, useSearchParams } from 'react-router';
import { PageLoader } from '../../../components/page-loader';
import { errorMessage } from '../../../lib/error-message';
import { useVerifyEmail } from '../api/verify-email';
import { AuthCard } from '../components/auth-card';
import { AuthNotice } from '../components/auth-notice';
import { ResendVerificationButton } from '../components/resend-verification-button';

export const EMAIL_CONFIRMED = 'Your e-mail address is confirmed. You can sign in now.';

/** /verify-email?token&email: the link from the verification e-mail. */
export function VerifyEmailPage() {
  const [params] = useSearchParams();
  const token = params.get('token')?.trim() ?? '';
  const email = params.get('email')?.trim() ?? '';
  const complete = token !== '' && email !== '';
  const verify = useVerifyEmail(email, token, complete);

  if (complete && verify.isPending) {
    return (
      <AuthCard title="Confirm your e-mail">
        <PageLoader label="Confirming your e-mail address…" />
      </AuthCard>
    );
  }
  if (complete && verify.isSuccess) {
    return (
      <AuthNotice
        title="E-mail confirmed"
        tone="success"
        notice={verify.data.message ?? EMAIL_CONFIRMED}
        actions={
          <Link className="button button--primary button--block" to="/login">
            Sign in
          </Link>
        }
      />
    );
  }
  return (
    <AuthNotice
      title="Confirm your e-mail"
      tone="error"
      notice={complete ? errorMessage(verify.error) : 'This link is invalid or has expired'}
      actions={
        <div className="auth-actions">
          {email ? <ResendVerificationButton email={email} /> : null}
          <Link className="button button--primary" to="/login">
            Go to sign in
          </Link>
        </div>
      }
    >
      <p className="muted">Verification links work once, for 24 hours. Ask for a new one below.</p>
    </AuthNotice>
  );
}
