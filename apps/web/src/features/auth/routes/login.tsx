import { landingPath, ZLoginBody } from '@quire/contract';
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { Link, Navigate, useNavigate, useSearchParams } from 'react-router';
import { AlertBanner } from '../../../components/notifications/alert-banner';
import { useLocationToast } from '../../../components/notifications/use-location-toast';
import { ApiError } from '../../../lib/api-error';
import { getAuth } from '../../../lib/storage';
import { useLogin } from '../api/login';
import { nextStep, safeRedirect } from '../lib/next-step';
import { storeLogin } from '../lib/store-login';

/** Shown when a login fails without a message from the server (spec §8, spelling as specified). */
export const LOGIN_FALLBACK_MESSAGE = 'An error occured';

type Field = 'username' | 'password' | 'role';
type FieldErrors = Partial<Record<Field, string>>;
const FIELDS: Field[] = ['username', 'password', 'role'];

/** `body.password` -> `password`, for the fields of this form. */
function fieldErrorsFrom(errors: Array<{ path: string; message: string }>): FieldErrors {
  const result: FieldErrors = {};
  for (const { path, message } of errors) {
    const field = path.split('.').pop() as Field;
    if (FIELDS.includes(field) && !result[field]) result[field] = message;
  }
  return result;
}

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
  const id = useId();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const login = useLogin();
  const formRef = useRef<HTMLFormElement>(null);
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>({});
  const [failure, setFailure] = useState<{ attempt: number; message: string } | null>(null);

  useEffect(() => {
    formRef.current?.querySelector<HTMLInputElement>('input[name="username"]')?.focus();
  }, []);

  const showFailure = (message: string) => setFailure((f) => ({ attempt: (f?.attempt ?? 0) + 1, message }));

  const focusFirstInvalid = (errors: FieldErrors) => {
    const first = FIELDS.find((f) => errors[f]);
    if (first) formRef.current?.querySelector<HTMLElement>(`[name="${first}"]`)?.focus();
  };

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
      const errors = fieldErrorsFrom(
        parsed.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message })),
      );
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
        const errors = fieldErrorsFrom(apiError?.errors ?? []);
        setFieldErrors(errors);
        showFailure(apiError?.serverMessage ?? LOGIN_FALLBACK_MESSAGE);
        focusFirstInvalid(errors);
      },
    });
  }

  const describedBy = (field: Field) => (fieldErrors[field] ? `${id}-${field}-error` : undefined);
  const fieldError = (field: Field) =>
    fieldErrors[field] ? (
      <p className="field__error" id={`${id}-${field}-error`}>
        {fieldErrors[field]}
      </p>
    ) : null;

  return (
    <main className="centered-page auth-page">
      <title>Sign in · Quire</title>
      <div className="card card--narrow">
        <div className="brand brand--center">
          <span className="brand__mark" aria-hidden="true">
            Q
          </span>
          <span className="brand__name">Quire</span>
        </div>
        <h1 className="auth-page__title">Sign in</h1>
        <p className="muted auth-page__lead">Welcome back. Sign in to your documents.</p>

        {failure ? (
          <AlertBanner key={failure.attempt} kind="error">
            {failure.message}
          </AlertBanner>
        ) : null}

        <form ref={formRef} className="form" onSubmit={onSubmit} noValidate aria-busy={login.isPending}>
          <div className="field">
            <label htmlFor={`${id}-username`}>Username or e-mail</label>
            <input
              id={`${id}-username`}
              name="username"
              type="text"
              autoComplete="username"
              autoCapitalize="none"
              spellCheck={false}
              aria-invalid={fieldErrors.username ? true : undefined}
              aria-describedby={describedBy('username')}
            />
            {fieldError('username')}
          </div>
          <div className="field">
            <div className="field__label-row">
              <label htmlFor={`${id}-password`}>Password</label>
              <Link to="/forgot-password" className="field__label-link">
                Forgot password?
              </Link>
            </div>
            <input
              id={`${id}-password`}
              name="password"
              type="password"
              autoComplete="current-password"
              aria-invalid={fieldErrors.password ? true : undefined}
              aria-describedby={describedBy('password')}
            />
            {fieldError('password')}
          </div>
          <div className="field">
            <label htmlFor={`${id}-role`}>Role</label>
            <select
              id={`${id}-role`}
              name="role"
              defaultValue="user"
              aria-invalid={fieldErrors.role ? true : undefined}
              aria-describedby={describedBy('role')}
            >
              <option value="user">User</option>
              <option value="admin">Admin</option>
            </select>
            {fieldError('role')}
          </div>
          <button type="submit" className="button button--primary button--block" disabled={login.isPending}>
            {login.isPending ? (
              <>
                <span className="spinner spinner--small" aria-hidden="true" /> Signing in…
              </>
            ) : (
              'Sign in'
            )}
          </button>
        </form>
        <p className="auth-page__links">
          New to Quire? <Link to="/register">Create an account</Link>
        </p>
      </div>
    </main>
  );
}
