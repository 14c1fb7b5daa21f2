import { ZEmail, ZUsername } from '@quire/contract';
import { type FormEvent, useRef, useState } from 'react';
import { Link } from 'react-router';
import { FormField } from '../../../components/form-field';
import { AlertBanner } from '../../../components/notifications/alert-banner';
import { PendingButton } from '../../../components/pending-button';
import { ApiError } from '../../../lib/api-error';
import {
  apiFieldErrors,
  emptyFieldErrors,
  type FieldErrors,
  focusFirstError,
} from '../../../lib/field-errors';
import { useRegistrationProbe } from '../api/email-is-valid';
import { useRegister } from '../api/register';
import { AuthCard } from '../components/auth-card';
import { newPasswordErrors, PasswordFields } from '../components/password-fields';
import { ResendVerificationButton } from '../components/resend-verification-button';

export const REGISTRATION_OFF = 'Self-registration is turned off. Ask your administrator for an account.';

/** The server's words when it refuses registration (403), else null. */
const refusalOf = (error: unknown) =>
  error instanceof ApiError && error.status === 403 ? (error.serverMessage ?? REGISTRATION_OFF) : null;

const FIELDS = ['username', 'email', 'first_name', 'last_name', 'password', 'password_confirmation'] as const;
type Field = (typeof FIELDS)[number];

/** /register: self-registration, when the company allows it. */
export function RegisterPage() {
  const probe = useRegistrationProbe();
  const register = useRegister();
  const formRef = useRef<HTMLFormElement>(null);
  const [values, setValues] = useState<Record<Field, string>>({
    username: '',
    email: '',
    first_name: '',
    last_name: '',
    password: '',
    password_confirmation: '',
  });
  const [errors, setErrors] = useState<FieldErrors<Field>>({});
  const [refusal, setRefusal] = useState<{ attempt: number; message: string } | null>(null);
  const [registered, setRegistered] = useState<string | null>(null);

  const set = (field: Field) => (e: React.ChangeEvent<HTMLInputElement>) => {
    setValues((v) => ({ ...v, [field]: e.target.value }));
    setErrors((old) => ({ ...old, [field]: undefined }));
  };

  if (registered) return <CheckYourEmail email={registered} />;
  // Said up front: no form to fill in when the company does not allow registration.
  if (probe.isPending)
    return (
      <AuthCard title="Create an account">
        <div className="empty-state" role="status">
          <span className="spinner spinner--dark" aria-hidden="true" />
          <p className="muted">Loading…</p>
        </div>
      </AuthCard>
    );
  const closed = refusalOf(probe.error);
  if (closed) return <RegistrationClosed message={closed} />;

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (register.isPending) return;
    const next: FieldErrors<Field> = {};
    const username = ZUsername.safeParse(values.username);
    if (!username.success) next.username = username.error.issues[0]?.message;
    const email = ZEmail.safeParse(values.email);
    if (!email.success) next.email = email.error.issues[0]?.message;
    const pw = newPasswordErrors(values.password, values.password_confirmation, {
      username: values.username,
      email: values.email,
    });
    if (pw.password) next.password = pw.password;
    if (pw.confirmation) next.password_confirmation = pw.confirmation;
    Object.assign(
      next,
      emptyFieldErrors(values, { username: 'Enter a username', email: 'Enter an e-mail address' }),
    );
    if (Object.values(next).some(Boolean)) {
      setErrors(next);
      focusFirstError(formRef.current, next, FIELDS);
      return;
    }
    setErrors({});
    setRefusal(null);
    register.mutate(
      {
        username: values.username,
        email: values.email,
        password: values.password,
        first_name: values.first_name.trim() || undefined,
        last_name: values.last_name.trim() || undefined,
      },
      {
        onSuccess: () => setRegistered(email.data ?? values.email),
        onError: (error) => {
          const fieldErrors = apiFieldErrors(error, FIELDS);
          setErrors(fieldErrors);
          focusFirstError(formRef.current, fieldErrors, FIELDS);
          const message =
            refusalOf(error) ??
            (error instanceof ApiError && error.serverMessage
              ? error.serverMessage
              : 'Failed to create account');
          setRefusal((r) => ({ attempt: (r?.attempt ?? 0) + 1, message }));
        },
      },
    );
  }

  return (
    <AuthCard title="Create an account" lead="Your account opens once you confirm your e-mail address." wide>
      {refusal ? (
        <AlertBanner key={refusal.attempt} kind="error">
          {refusal.message}
        </AlertBanner>
      ) : null}
      <form ref={formRef} className="form" onSubmit={onSubmit} noValidate aria-busy={register.isPending}>
        <FormField
          label="Username"
          name="username"
          autoComplete="username"
          autoCapitalize="none"
          spellCheck={false}
          value={values.username}
          onChange={set('username')}
          error={errors.username}
        />
        <FormField
          label="E-mail"
          name="email"
          type="email"
          autoComplete="email"
          autoCapitalize="none"
          spellCheck={false}
          value={values.email}
          onChange={set('email')}
          error={errors.email}
        />
        <div className="form-row">
          <FormField
            label="First name"
            name="first_name"
            autoComplete="given-name"
            value={values.first_name}
            onChange={set('first_name')}
            error={errors.first_name}
          />
          <FormField
            label="Last name"
            name="last_name"
            autoComplete="family-name"
            value={values.last_name}
            onChange={set('last_name')}
            error={errors.last_name}
          />
        </div>
        <PasswordFields
          password={values.password}
          confirmation={values.password_confirmation}
          onPassword={(password) => {
            setValues((v) => ({ ...v, password }));
            setErrors((old) => ({ ...old, password: undefined }));
          }}
          onConfirmation={(password_confirmation) => {
            setValues((v) => ({ ...v, password_confirmation }));
            setErrors((old) => ({ ...old, password_confirmation: undefined }));
          }}
          passwordLabel="Password"
          context={{ username: values.username, email: values.email }}
          errors={{ password: errors.password, confirmation: errors.password_confirmation }}
        />
        <PendingButton pending={register.isPending} pendingLabel="Creating account…" block>
          Create account
        </PendingButton>
      </form>
      <p className="auth-page__links">
        Already have an account? <Link to="/login">Sign in</Link>
      </p>
    </AuthCard>
  );
}

function RegistrationClosed({ message }: { message: string }) {
  return (
    <AuthCard title="Create an account">
      <div className="alert alert--info" role="status">
        {message}
      </div>
      <div className="auth-actions">
        <Link className="button button--primary" to="/login">
          Back to sign in
        </Link>
      </div>
    </AuthCard>
  );
}

function CheckYourEmail({ email }: { email: string }) {
  return (
    <AuthCard title="Check your e-mail">
      <div className="alert alert--success" role="status">
        Your account has been created. We sent a link to <strong>{email}</strong>: open it to activate your
        account.
      </div>
      <p className="muted">
        The link works for 24 hours. Nothing arrived? Check your spam folder, or send it again.
      </p>
      <div className="auth-actions">
        <ResendVerificationButton email={email} />
        <Link className="button button--primary" to="/login">
          Go to sign in
        </Link>
      </div>
    </AuthCard>
  );
}
