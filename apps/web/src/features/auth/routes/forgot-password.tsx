import { ZEmailBody } from '@quire/contract';
import { type FormEvent, useRef, useState } from 'react';
import { Link } from 'react-router';
import { FormField } from '../../../components/form-field';
import { useNotify } from '../../../components/notifications/notification-context';
import { PendingButton } from '../../../components/pending-button';
import { apiFieldErrors, fieldErrorsFrom } from '../../../lib/field-errors';
import { usePasswordEmail } from '../api/password-email';
import { AuthCard } from '../components/auth-card';

/** The one answer for any address: it never tells whether an account exists. */
export const RESET_LINK_SENT =
  'If an account exists for that address, we have sent a link to reset the password.';

const FIELDS = ['email'] as const;

/** /forgot-password: ask for a reset link by e-mail. */
export function ForgotPasswordPage() {
  const notify = useNotify();
  const send = usePasswordEmail();
  const formRef = useRef<HTMLFormElement>(null);
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [sentTo, setSentTo] = useState<string | null>(null);

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (send.isPending) return;
    const parsed = ZEmailBody.safeParse({ email });
    if (!parsed.success) {
      setError(fieldErrorsFrom(parsed.error.issues, FIELDS).email);
      formRef.current?.querySelector<HTMLInputElement>('input[name="email"]')?.focus();
      return;
    }
    setError(undefined);
    send.mutate(parsed.data.email, {
      onSuccess: () => setSentTo(parsed.data.email),
      onError: (err) => {
        const field = apiFieldErrors(err, FIELDS).email;
        if (field) {
          setError(field);
          formRef.current?.querySelector<HTMLInputElement>('input[name="email"]')?.focus();
        } else {
          notify.notifyFailure('Failed to send the reset link', err);
        }
      },
    });
  }

  if (sentTo) {
    return (
      <AuthCard title="Check your e-mail">
        <div className="alert alert--success" role="status">
          {RESET_LINK_SENT}
        </div>
        <p className="muted">
          The link works for one hour. It went to <strong>{sentTo}</strong> if that address belongs to an
          account. Nothing there? Check your spam folder, or ask again.
        </p>
        <div className="auth-actions">
          <button type="button" className="button button--ghost" onClick={() => setSentTo(null)}>
            Ask again
          </button>
          <Link className="button button--primary" to="/login">
            Back to sign in
          </Link>
        </div>
      </AuthCard>
    );
  }

  return (
    <AuthCard
      title="Forgot your password?"
      lead="Enter your e-mail address and we will send you a link to choose a new one."
    >
      <form ref={formRef} className="form" onSubmit={onSubmit} noValidate aria-busy={send.isPending}>
        <FormField
          label="E-mail"
          name="email"
          type="email"
          autoComplete="email"
          autoCapitalize="none"
          spellCheck={false}
          autoFocus
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          error={error}
        />
        <PendingButton pending={send.isPending} pendingLabel="Sending…" block>
          Send reset link
        </PendingButton>
      </form>
      <p className="auth-page__links">
        <Link to="/login">Back to sign in</Link>
      </p>
    </AuthCard>
  );
}
