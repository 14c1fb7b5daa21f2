import { landingPath } from '@quire/contract/access';
import { useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, Navigate, useNavigate, useSearchParams } from 'react-router';
import { Field, FormField } from '../../../components/form-field';
import { AlertBanner } from '../../../components/notifications/alert-banner';
import { useLocationToast } from '../../../components/notifications/use-location-toast';
import { PendingButton } from '../../../components/pending-button';
import { ApiError } from '../../../lib/api-error';
import { usePublicBranding } from '../../../lib/branding';
import { lazyResolver, setServerErrors } from '../../../lib/form';
import { getAuth } from '../../../lib/storage';
import { type LoginInput, useLogin } from '../api/login';
import { useRegistrationOpen } from '../api/registration-open';
import { AuthCard } from '../components/auth-card';
import { nextStep, safeRedirect } from '../lib/next-step';
import { storeLogin } from '../lib/store-login';

/** Shown when a login fails without a message from the server (spec §8, spelling as specified). */
export const LOGIN_FALLBACK_MESSAGE = 'An error occured';
export const EMAIL_NOT_VERIFIED = 'auth.email_not_verified';
export const EMAIL_NOT_VERIFIED_MESSAGE =
  'Your e-mail address is not confirmed yet. Open the link we sent you, or have it sent again.';

const FIELDS = ['username', 'password', 'role'] as const;
const resolver = lazyResolver<LoginInput>(() => import('../lib/login-resolver').then((m) => m.loginResolver));
const ResendVerification = lazy(() =>
  import('../components/resend-verification-form').then((m) => ({ default: m.ResendVerificationForm })),
);

export function LoginPage() {
  useLocationToast();
  const [searchParams] = useSearchParams();
  const redirect = searchParams.get('redirect') ?? searchParams.get('preview');
  const auth = getAuth();
  const home = auth && landingPath(auth.data.role, auth.data.access_type);
  // Already signed in: no second login.
  if (auth && home) return <Navigate to={safeRedirect(redirect) ?? home} replace />;
  return <LoginForm redirect={redirect} />;
}

function LoginForm({ redirect }: { redirect: string | null }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const login = useLogin();
  const registrationOpen = useRegistrationOpen();
  const branding = usePublicBranding();
  const [failure, setFailure] = useState<{ attempt: number; message: string } | null>(null);
  /** Signed in before confirming the e-mail address: what was typed as the username. */
  const [unverified, setUnverified] = useState<string | null>(null);
  const form = useForm<LoginInput>({
    resolver,
    defaultValues: { username: '', password: '', role: 'user' },
  });
  const { errors } = form.formState;

  const showFailure = (message: string) => setFailure((f) => ({ attempt: (f?.attempt ?? 0) + 1, message }));

  const onSubmit = form.handleSubmit(
    (values) => {
      if (login.isPending) return;
      setFailure(null);
      setUnverified(null);
      login.mutate(values, {
        onSuccess: (data) => {
          const step = nextStep({
            role: values.role,
            accessType: data.access_type,
            isCompany2FAEnabled: data.isCompany2FAEnabled,
            isUser2FAEnabled: data.isUser2FAEnabled,
            redirect,
          });
          if (step.kind === 'invalid-role') {
            showFailure(step.message);
            return;
          }
          queryClient.clear();
          storeLogin(data, step);
          navigate(step.to, { replace: true });
        },
        onError: (error) => {
          const apiError = error instanceof ApiError ? error : null;
          if (apiError?.code === EMAIL_NOT_VERIFIED) {
            setUnverified(values.username);
            return;
          }
          setServerErrors(form, error, FIELDS);
          showFailure(apiError?.serverMessage ?? LOGIN_FALLBACK_MESSAGE);
        },
      });
    },
    () => setFailure(null),
  );

  return (
    <AuthCard title="Sign in" lead="Welcome back. Sign in to your documents." branding={branding}>
      {failure ? (
        <AlertBanner key={failure.attempt} kind="error">
          {failure.message}
        </AlertBanner>
      ) : null}
      {unverified !== null ? (
        <div className="alert alert--warning" role="alert">
          <p>{EMAIL_NOT_VERIFIED_MESSAGE}</p>
          <Suspense fallback={null}>
            <ResendVerification email={unverified.includes('@') ? unverified : ''} />
          </Suspense>
        </div>
      ) : null}

      {/* The schema loads once the person starts typing (not during the first paint). */}
      <form
        className="form"
        onSubmit={onSubmit}
        onInput={() => void resolver.preload()}
        noValidate
        aria-busy={login.isPending}
      >
        <FormField
          label="Username or e-mail"
          type="text"
          autoComplete="username"
          autoCapitalize="none"
          spellCheck={false}
          autoFocus
          error={errors.username?.message}
          {...form.register('username')}
        />
        <FormField
          label="Password"
          type="password"
          autoComplete="current-password"
          error={errors.password?.message}
          {...form.register('password')}
        />
        <Field
          label="Role"
          error={errors.role?.message}
          hint="Admin: the File Control and Settings areas; User: your files"
        >
          {(control) => (
            <select {...control} {...form.register('role')}>
              <option value="user">User</option>
              <option value="admin">Admin</option>
            </select>
          )}
        </Field>
        <PendingButton pending={login.isPending} pendingLabel="Signing in…" block>
          Sign in
        </PendingButton>
      </form>
      {/* Below the form, so that Tab goes Username, Password, Role, Sign in. */}
      <p className="auth-page__links">
        <Link to="/forgot-password">Forgot password?</Link>
      </p>
      {registrationOpen ? (
        <p className="auth-page__links auth-page__links--tight">
          New to Quire? <Link to="/register">Create an account</Link>
        </p>
      ) : null}
    </AuthCard>
  );
}
