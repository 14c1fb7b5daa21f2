import { landingPath } from '@quire/contract/access';
import { type FormEvent, lazy, Suspense, useEffect, useRef, useState } from 'react';
import { Link, Navigate, useNavigate, useSearchParams } from 'react-router';
import { Field, FormField, TYPED_AS_IS } from '../../../components/form-field';
import { AlertBanner } from '../../../components/notifications/alert-banner';
import { useLocationToast } from '../../../components/notifications/use-location-toast';
import { PendingButton } from '../../../components/pending-button';
import { ApiError } from '../../../lib/api-error';
import { usePublicBranding } from '../../../lib/branding';
import { type FieldErrors, fieldErrorsFrom } from '../../../lib/field-errors';
import { focusField } from '../../../lib/focus-field';
import { releaseHeldSubmit, typedBefore } from '../../../lib/prerendered';
import { loadedQueryClient } from '../../../lib/query-client-store';
import { getAuth } from '../../../lib/storage';
import { type LoginInput, login } from '../api/login';
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
type LoginField = (typeof FIELDS)[number];
/**
 * The form's check (the contract's ZLoginBody, with zod) loads once the person starts typing.
 * This form, alone of Quire's, does without react-hook-form: the sign-in page is the first
 * load, and the library's 13.6 kB (gzip) was over a tenth of it (decision 012).
 */
const loadCheck = () => import('../lib/login-check').then((m) => m.checkLogin);
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
  const [pending, setPending] = useState(false);
  const registrationOpen = useRegistrationOpen();
  const branding = usePublicBranding();
  const [failure, setFailure] = useState<{ attempt: number; message: string } | null>(null);
  /** Signed in before confirming the e-mail address: what was typed as the username. */
  const [unverified, setUnverified] = useState<string | null>(null);
  const [errors, setErrors] = useState<FieldErrors<LoginField>>({});

  const form = useRef<HTMLFormElement>(null);
  // A Sign in pressed on the prerendered page before this script ran (held by
  // public/after-paint.js) is done now. (Hydration keeps the page's fields, their values and
  // the focus as they are.)
  useEffect(() => {
    if (releaseHeldSubmit()) form.current?.requestSubmit();
  }, []);

  const showFailure = (message: string) => setFailure((f) => ({ attempt: (f?.attempt ?? 0) + 1, message }));
  const showErrors = (found: FieldErrors<LoginField>) => {
    setErrors(found);
    const first = FIELDS.find((field) => found[field]);
    if (first) focusField(first);
  };

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (pending) return;
    const data = new FormData(event.currentTarget);
    const typed = Object.fromEntries(FIELDS.map((f) => [f, String(data.get(f) ?? '')])) as LoginInput;
    const checked = (await loadCheck())(typed);
    setFailure(null);
    if (!checked.ok) {
      showErrors(checked.errors);
      return;
    }
    setErrors({});
    setUnverified(null);
    const values = checked.values;
    setPending(true);
    let answer: Awaited<ReturnType<typeof login>>;
    try {
      answer = await login(values);
    } catch (error) {
      setPending(false);
      const apiError = error instanceof ApiError ? error : null;
      if (apiError?.code === EMAIL_NOT_VERIFIED) {
        setUnverified(values.username);
        return;
      }
      showErrors(apiError ? fieldErrorsFrom(apiError.errors, FIELDS) : {});
      showFailure(apiError?.serverMessage ?? LOGIN_FALLBACK_MESSAGE);
      return;
    }
    setPending(false);
    const step = nextStep({
      role: values.role,
      accessType: answer.access_type,
      isCompany2FAEnabled: answer.isCompany2FAEnabled,
      isUser2FAEnabled: answer.isUser2FAEnabled,
      redirect,
    });
    if (step.kind === 'invalid-role') {
      showFailure(step.message);
      return;
    }
    // Nothing of a previous session's answers carries over (the client exists once a page
    // that needs it has loaded).
    loadedQueryClient()?.clear();
    storeLogin(answer, step);
    navigate(step.to, { replace: true });
  };

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
      {/* POST: typed before the script has run (the page is painted from static HTML), a
          submit never puts the password in the address. */}
      <form
        ref={form}
        method="post"
        className="form"
        onSubmit={(event) => void onSubmit(event)}
        onInput={() => void loadCheck().catch(() => undefined)}
        noValidate
        aria-busy={pending}
      >
        <FormField
          label="Username or e-mail"
          type="text"
          autoComplete="username"
          {...TYPED_AS_IS}
          autoFocus
          name="username"
          defaultValue={typedBefore('username')}
          error={errors.username}
        />
        <FormField
          label="Password"
          type="password"
          autoComplete="current-password"
          name="password"
          defaultValue={typedBefore('password')}
          error={errors.password}
        />
        <Field
          label="Role"
          error={errors.role}
          hint="Admin: the File Control and Settings areas; User: your files"
        >
          {(control) => (
            <select {...control} name="role" defaultValue={typedBefore('role') ?? 'user'}>
              <option value="user">User</option>
              <option value="admin">Admin</option>
            </select>
          )}
        </Field>
        <PendingButton pending={pending} pendingLabel="Signing in…" block>
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
