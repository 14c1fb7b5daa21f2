import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { useNotify } from '../../../components/notifications/notification-context';
import type { ToastState } from '../../../components/notifications/use-location-toast';
import { PageLoader } from '../../../components/page-loader';
import { PendingButton } from '../../../components/pending-button';
import { ApiError } from '../../../lib/api-error';
import { errorMessage } from '../../../lib/error-message';
import { checkResolver, focusFirstInvalid, setServerErrors } from '../../../lib/form';
import { clearAuth } from '../../../lib/storage';
import { useResetPassword } from '../api/reset-password';
import { useVerifyResetToken } from '../api/verify-reset-token';
import { AuthCard } from '../components/auth-card';
import { AuthNotice } from '../components/auth-notice';
import { newPasswordErrors, PasswordFields, passwordSetters } from '../components/password-fields';

export const INVALID_LINK_MESSAGE = 'This link is invalid or has expired';
export const PASSWORD_RESET_MESSAGE = 'Your password has been reset. Sign in with the new password.';

const FIELDS = ['password', 'password_confirmation'] as const;

function InvalidLink({ message = INVALID_LINK_MESSAGE }: { message?: string }) {
  return (
    <AuthNotice
      title="Reset your password"
      tone="error"
      notice={message}
      actions={
        <Link className="button button--primary button--block" to="/forgot-password">
          Ask for a new link
        </Link>
      }
    >
      <p className="muted">
        Reset links work once, for one hour. Ask for a new one and use the latest e-mail.
      </p>
    </AuthNotice>
  );
}

/** /reset-password?token&email: the link from the reset e-mail. */
export function ResetPasswordPage() {
  const [params] = useSearchParams();
  const token = params.get('token')?.trim() ?? '';
  const email = params.get('email')?.trim() ?? '';
  const check = useVerifyResetToken(email, token, token !== '' && email !== '');

  if (token === '' || email === '') return <InvalidLink />;
  if (check.isPending) {
    return (
      <AuthCard title="Reset your password">
        <PageLoader label="Checking your link…" />
      </AuthCard>
    );
  }
  if (check.isError) {
    const error = check.error;
    // 4xx: the link itself is refused; anything else: say what went wrong.
    const refused = error instanceof ApiError && error.status < 500 && error.status !== 429;
    return <InvalidLink message={refused ? INVALID_LINK_MESSAGE : errorMessage(error)} />;
  }
  return <ResetPasswordForm email={email} token={token} />;
}

function ResetPasswordForm({ email, token }: { email: string; token: string }) {
  const navigate = useNavigate();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const reset = useResetPassword();
  const [linkRefused, setLinkRefused] = useState(false);
  const form = useForm<{ password: string; password_confirmation: string }>({
    defaultValues: { password: '', password_confirmation: '' },
    // The password policy the API applies (shared through the contract), before sending.
    resolver: checkResolver((values) => {
      const local = newPasswordErrors(values.password, values.password_confirmation, { email });
      return { password: local.password, password_confirmation: local.confirmation };
    }),
  });
  const [password, confirmation] = form.watch(['password', 'password_confirmation']);
  const { errors } = form.formState;

  const onSubmit = form.handleSubmit(({ password: chosen }) => {
    if (reset.isPending) return;
    reset.mutate(
      { email, token, password: chosen },
      {
        onSuccess: (result) => {
          // Every session of the user ended: forget any stored here.
          clearAuth();
          queryClient.clear();
          navigate('/login', {
            replace: true,
            state: { toast: result.message ?? PASSWORD_RESET_MESSAGE } satisfies ToastState,
          });
        },
        onError: (error) => {
          if (error instanceof ApiError && error.errors.some((e) => e.path === 'body.token')) {
            setLinkRefused(true);
            notify.notifyFailure('Failed to reset password', error);
            return;
          }
          setServerErrors(form, error, FIELDS);
          notify.notifyFailure('Failed to reset password', error);
        },
      },
    );
  }, focusFirstInvalid(FIELDS));

  if (linkRefused) return <InvalidLink />;

  return (
    <AuthCard title="Choose a new password" lead={<>For {email}</>}>
      <form className="form" onSubmit={onSubmit} noValidate aria-busy={reset.isPending}>
        <input type="hidden" name="username" autoComplete="username" defaultValue={email} />
        <PasswordFields
          password={password}
          confirmation={confirmation}
          {...passwordSetters(form, 'password', 'password_confirmation')}
          context={{ email }}
          errors={{ password: errors.password?.message, confirmation: errors.password_confirmation?.message }}
        />
        <PendingButton pending={reset.isPending} pendingLabel="Saving…" block>
          Set new password
        </PendingButton>
      </form>
    </AuthCard>
  );
}
