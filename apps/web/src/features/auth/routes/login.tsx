import { landingPath, ZLoginBody } from '@quire/contract';
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useRef, useState } from 'react';
import { Link, Navigate, useNavigate, useSearchParams } from 'react-router';
import { Field, FormField } from '../../../components/form-field';
import { AlertBanner } from '../../../components/notifications/alert-banner';
import { useLocationToast } from '../../../components/notifications/use-location-toast';
import { PendingButton } from '../../../components/pending-button';
import { ApiError } from '../../../lib/api-error';
import { type FieldErrors, fieldErrorsFrom, focusFirstError } from '../../../lib/field-errors';
import { getAuth } from '../../../lib/storage';
import { useLogin } from '../api/login';
import { AuthCard } from '../components/auth-card';
import { nextStep, safeRedirect } from '../lib/next-step';
import { storeLogin } from '../lib/store-login';

/** Shown when a login fails without a message from the server (spec §8, spelling as specified). */
export const LOGIN_FALLBACK_MESSAGE = 'An error occured';

type LoginField = 'username' | 'password' | 'role';
const FIELDS: LoginField[] = ['username', 'password', 'role'];

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
  const formRef = useRef<HTMLFormElement>(null);
  const [fieldErrors, setFieldErrors] = useState<FieldErrors<LoginField>>({});
  const [failure, setFailure] = useState<{ attempt: number; message: string } | null>(null);

  const showFailure = (message: string) => setFailure((f) => ({ attempt: (f?.attempt ?? 0) + 1, message }));

  const focusFirstInvalid = (errors: FieldErrors<LoginField>) =>
    focusFirstError(formRef.current, errors, FIELDS);

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (login.isPending) return;
    const form = new FormData(event.currentTarget);
    const parsed = ZLoginBody.safeParse({
      username: form.get('username'),
      password: form.get('password'),
      role: form.get('role'),
    });
    if (!parsed.success) {
      const errors = fieldErrorsFrom(parsed.error.issues, FIELDS);
      setFieldErrors(errors);
      setFailure(null);
      focusFirstInvalid(errors);
      return;
    }
    setFieldErrors({});
    setFailure(null);
    login.mutate(parsed.data, {
      onSuccess: (data) => {
        const step = nextStep({
          role: parsed.data.role,
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
        const errors = fieldErrorsFrom(apiError?.errors ?? [], FIELDS);
        setFieldErrors(errors);
        showFailure(apiError?.serverMessage ?? LOGIN_FALLBACK_MESSAGE);
        focusFirstInvalid(errors);
      },
    });
  }

  return (
    <AuthCard title="Sign in" lead="Welcome back. Sign in to your documents.">
      {failure ? (
        <AlertBanner key={failure.attempt} kind="error">
          {failure.message}
        </AlertBanner>
      ) : null}

      <form ref={formRef} className="form" onSubmit={onSubmit} noValidate aria-busy={login.isPending}>
        <FormField
          label="Username or e-mail"
          name="username"
          type="text"
          autoComplete="username"
          autoCapitalize="none"
          spellCheck={false}
          autoFocus
          error={fieldErrors.username}
        />
        <FormField
          label="Password"
          name="password"
          type="password"
          autoComplete="current-password"
          error={fieldErrors.password}
        />
        <Field label="Role" error={fieldErrors.role}>
          {(control) => (
            <select {...control} name="role" defaultValue="user">
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
      <p className="auth-page__links auth-page__links--tight">
        New to Quire? <Link to="/register">Create an account</Link>
      </p>
    </AuthCard>
  );
}
