import { ZEmail, ZUsername } from '@quire/contract';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router';
import { EmailField, FormField, TYPED_AS_IS } from '../../../components/form-field';
import { AlertBanner } from '../../../components/notifications/alert-banner';
import { PendingButton } from '../../../components/pending-button';
import { ApiError } from '../../../lib/api-error';
import { emptyFieldErrors, type FieldErrors } from '../../../lib/field-errors';
import { checkResolver, focusFirstInvalid, setServerErrors } from '../../../lib/form';
import { useRegister } from '../api/register';
import { useRegistrationState } from '../api/registration-state';
import { AuthCard } from '../components/auth-card';
import { AuthNotice } from '../components/auth-notice';
import { newPasswordErrors, PasswordFields, passwordSetters } from '../components/password-fields';
import { ResendVerificationButton } from '../components/resend-verification-button';

export const REGISTRATION_OFF = 'Self-registration is turned off. Ask your administrator for an account.';

/** The server's words when it refuses registration (403), else null. */
const refusalOf = (error: unknown) =>
  error instanceof ApiError && error.status === 403 ? (error.serverMessage ?? REGISTRATION_OFF) : null;

const FIELDS = ['username', 'email', 'first_name', 'last_name', 'password', 'password_confirmation'] as const;
type Field = (typeof FIELDS)[number];

/** /register: self-registration, when the company allows it. */
export function RegisterPage() {
  const registration = useRegistrationState();
  const register = useRegister();
  const form = useForm<Record<Field, string>>({
    defaultValues: {
      username: '',
      email: '',
      first_name: '',
      last_name: '',
      password: '',
      password_confirmation: '',
    },
    // The contract's username and e-mail rules and the password policy, before sending.
    resolver: checkResolver((values) => {
      const pw = newPasswordErrors(values.password, values.password_confirmation, {
        username: values.username,
        email: values.email,
      });
      return {
        username: ZUsername.safeParse(values.username).error?.issues[0]?.message,
        email: ZEmail.safeParse(values.email).error?.issues[0]?.message,
        password: pw.password,
        password_confirmation: pw.confirmation,
        ...emptyFieldErrors(values, { username: 'Enter a username', email: 'Enter an e-mail address' }),
      };
    }),
  });
  const errors = Object.fromEntries(
    FIELDS.map((field) => [field, form.formState.errors[field]?.message]),
  ) as FieldErrors<Field>;
  const [password, confirmation, username, email] = form.watch([
    'password',
    'password_confirmation',
    'username',
    'email',
  ]);
  const [refusal, setRefusal] = useState<{ attempt: number; message: string } | null>(null);
  const [registered, setRegistered] = useState<string | null>(null);

  const onSubmit = form.handleSubmit((values) => {
    if (register.isPending) return;
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
        onSuccess: () => setRegistered(ZEmail.safeParse(values.email).data ?? values.email),
        onError: (error) => {
          setServerErrors(form, error, FIELDS);
          const message =
            refusalOf(error) ??
            (error instanceof ApiError && error.serverMessage
              ? error.serverMessage
              : 'Failed to create account');
          setRefusal((r) => ({ attempt: (r?.attempt ?? 0) + 1, message }));
        },
      },
    );
  }, focusFirstInvalid(FIELDS));

  if (registered) return <CheckYourEmail email={registered} />;
  // Said up front: no form to fill in when the company does not allow registration.
  if (registration.isPending)
    return (
      <AuthCard title="Create an account">
        <div className="empty-state" role="status">
          <span className="spinner spinner--dark" aria-hidden="true" />
          <p className="muted">Loading…</p>
        </div>
      </AuthCard>
    );
  if (registration.data?.open === false) return <RegistrationClosed message={REGISTRATION_OFF} />;

  return (
    <AuthCard title="Create an account" lead="Your account opens once you confirm your e-mail address." wide>
      {refusal ? (
        <AlertBanner key={refusal.attempt} kind="error">
          {refusal.message}
        </AlertBanner>
      ) : null}
      <form className="form" onSubmit={onSubmit} noValidate aria-busy={register.isPending}>
        <FormField
          label="Username"
          autoComplete="username"
          {...TYPED_AS_IS}
          {...form.register('username', { onChange: () => form.clearErrors('username') })}
          error={errors.username}
        />
        <EmailField
          {...form.register('email', { onChange: () => form.clearErrors('email') })}
          error={errors.email}
        />
        <div className="form-row">
          <FormField
            label="First name"
            autoComplete="given-name"
            {...form.register('first_name')}
            error={errors.first_name}
          />
          <FormField
            label="Last name"
            autoComplete="family-name"
            {...form.register('last_name')}
            error={errors.last_name}
          />
        </div>
        <PasswordFields
          password={password}
          confirmation={confirmation}
          {...passwordSetters(form, 'password', 'password_confirmation')}
          passwordLabel="Password"
          context={{ username, email }}
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
    <AuthNotice
      title="Registration is closed"
      tone="info"
      notice={message}
      actions={
        <div className="auth-actions">
          <Link className="button button--primary" to="/login">
            Back to sign in
          </Link>
        </div>
      }
    />
  );
}

function CheckYourEmail({ email }: { email: string }) {
  return (
    <AuthNotice
      title="Check your e-mail"
      tone="success"
      notice={
        <>
          Your account has been created. We sent a link to <strong>{email}</strong>: open it to activate your
          account.
        </>
      }
      actions={
        <div className="auth-actions">
          <ResendVerificationButton email={email} />
          <Link className="button button--primary" to="/login">
            Go to sign in
          </Link>
        </div>
      }
    >
      <p className="muted">
        The link works for 24 hours. Nothing arrived? Check your spam folder, or send it again.
      </p>
    </AuthNotice>
  );
}
