import { zodResolver } from '@hookform/resolvers/zod';
import { type Body, type contract, ZEmailBody } from '@quire/contract';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router';
import { Button } from '../../../components/button';
import { EmailField } from '../../../components/form-field';
import { useNotify } from '../../../components/notifications/notification-context';
import { PendingButton } from '../../../components/pending-button';
import { setServerErrors } from '../../../lib/form';
import { usePasswordEmail } from '../api/password-email';
import { AuthCard } from '../components/auth-card';
import { AuthNotice } from '../components/auth-notice';

/** The one answer for any address: it never tells whether an account exists. */
export const RESET_LINK_SENT =
  'If an account exists for that address, we have sent a link to reset the password.';

const FIELDS = ['email'] as const;

/** /forgot-password: ask for a reset link by e-mail. */
export function ForgotPasswordPage() {
  const notify = useNotify();
  const send = usePasswordEmail();
  const [sentTo, setSentTo] = useState<string | null>(null);
  const form = useForm<Body<typeof contract.auth.passwordEmail>>({
    resolver: zodResolver(ZEmailBody),
    defaultValues: { email: '' },
  });

  const onSubmit = form.handleSubmit(({ email }) => {
    if (send.isPending) return;
    send.mutate(email, {
      onSuccess: () => setSentTo(email),
      onError: (err) => {
        if (!setServerErrors(form, err, FIELDS)) notify.notifyFailure('Failed to send the reset link', err);
      },
    });
  });

  if (sentTo) {
    return (
      <AuthNotice
        title="Check your e-mail"
        tone="success"
        notice={RESET_LINK_SENT}
        actions={
          <div className="auth-actions">
            <Button variant="ghost" onClick={() => setSentTo(null)}>
              Ask again
            </Button>
            <Link className="button button--primary" to="/login">
              Back to sign in
            </Link>
          </div>
        }
      >
        <p className="muted">
          The link works for one hour. It went to <strong>{sentTo}</strong> if that address belongs to an
          account. Nothing there? Check your spam folder, or ask again.
        </p>
      </AuthNotice>
    );
  }

  return (
    <AuthCard
      title="Forgot your password?"
      lead="Enter your e-mail address and we will send you a link to choose a new one."
    >
      <form className="form" onSubmit={onSubmit} noValidate aria-busy={send.isPending}>
        <EmailField autoFocus error={form.formState.errors.email?.message} {...form.register('email')} />
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
