import { accessTypeLabel, SIGNATURE_MAX_BYTES, type TUser } from '@quire/contract';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { FormField } from '../../../components/form-field';
import { useNotify } from '../../../components/notifications/notification-context';
import { PageHeader } from '../../../components/page-header';
import { PageLoader } from '../../../components/page-loader';
import { PendingButton } from '../../../components/pending-button';
import { ApiError } from '../../../lib/api-error';
import { useCurrentUser } from '../../../lib/current-user';
import { apiFieldErrors } from '../../../lib/field-errors';
import { checkResolver, focusFirstInvalid, setServerErrors } from '../../../lib/form';
import { setIsUser2FAVerified } from '../../../lib/storage';
import { useDisable2fa } from '../api/disable-2fa';
import { useEnable2fa } from '../api/enable-2fa';
import { useRecoveryCodesLeft, useRegenerateRecoveryCodes } from '../api/recovery-codes';
import { useTwoFactorState } from '../api/two-factor-state';
import { useUpdatePassword } from '../api/update-password';
import { useUploadSignature } from '../api/upload-signature';
import { useUserSignature } from '../api/user-signature';
import { useVerify2fa } from '../api/verify-2fa';
import { CodeOrPasswordDialog } from '../components/code-or-password-dialog';
import { OtpForm } from '../components/otp-form';
import { newPasswordErrors, PasswordFields, passwordSetters } from '../components/password-fields';
import { RecoveryCodes } from '../components/recovery-codes';
import { TwoFactorEnrolment } from '../components/two-factor-enrolment';
import { ENABLE_2FA_FAILED, TWO_FACTOR_VERIFIED_MESSAGE, VERIFY_2FA_FAILED } from '../lib/two-factor';

/** /profile: every signed-in person's own account, password, signature and 2FA. */
export function ProfilePage() {
  const { user, isPending } = useCurrentUser();
  return (
    <>
      <PageHeader title="Profile">Your account, password, signature and sign-in security.</PageHeader>
      {user ? (
        <div className="profile-grid">
          <AccountCard user={user} />
          <TwoFactorCard user={user} />
          <ChangePasswordCard user={user} />
          <SignatureCard user={user} />
        </div>
      ) : isPending ? (
        <PageLoader label="Loading your profile…" />
      ) : null}
    </>
  );
}

function AccountCard({ user }: { user: TUser }) {
  return (
    <section className="card" aria-labelledby="profile-account">
      <h2 id="profile-account">Account</h2>
      <dl className="details">
        <div>
          <dt>Name</dt>
          <dd>{user.name || '—'}</dd>
        </div>
        <div>
          <dt>Username</dt>
          <dd>{user.username}</dd>
        </div>
        <div>
          <dt>E-mail</dt>
          <dd>{user.email}</dd>
        </div>
        <div>
          <dt>Access type</dt>
          <dd>{accessTypeLabel(user.access_type)}</dd>
        </div>
        <div>
          <dt>Login role</dt>
          <dd>{user.role === 'admin' ? 'Admin' : 'User'}</dd>
        </div>
      </dl>
    </section>
  );
}

// ---- password ------------------------------------------------------------------------------

const PASSWORD_FIELDS = ['current_password', 'new_password', 'password_confirmation'] as const;
type PasswordField = (typeof PASSWORD_FIELDS)[number];

function ChangePasswordCard({ user }: { user: TUser }) {
  const notify = useNotify();
  const update = useUpdatePassword();
  const form = useForm<Record<PasswordField, string>>({
    defaultValues: { current_password: '', new_password: '', password_confirmation: '' },
    // The policy the API applies (shared through the contract), checked before sending.
    resolver: checkResolver((values) => {
      const local = newPasswordErrors(values.new_password, values.password_confirmation, user);
      return {
        current_password: values.current_password === '' ? 'Enter your current password' : undefined,
        new_password: local.password,
        password_confirmation: local.confirmation,
      };
    }),
  });
  const errors = {
    current_password: form.formState.errors.current_password?.message,
    new_password: form.formState.errors.new_password?.message,
    password_confirmation: form.formState.errors.password_confirmation?.message,
  };
  const [password, confirmation] = form.watch(['new_password', 'password_confirmation']);

  const onSubmit = form.handleSubmit((body) => {
    if (update.isPending) return;
    update.mutate(body, {
      onSuccess: (result) => {
        notify.success('Password changed', result.message ?? 'Your password has been changed');
        form.reset();
      },
      onError: (error) => {
        setServerErrors(form, error, PASSWORD_FIELDS);
        notify.notifyFailure('Failed to change password', error);
      },
    });
  }, focusFirstInvalid(PASSWORD_FIELDS));

  return (
    <section className="card" aria-labelledby="profile-password">
      <h2 id="profile-password">Change password</h2>
      <p className="muted">Your other sessions are signed out when the password changes.</p>
      <form className="form" onSubmit={onSubmit} noValidate aria-busy={update.isPending}>
        <input type="hidden" name="username" autoComplete="username" defaultValue={user.username} />
        <FormField
          label="Current password"
          type="password"
          autoComplete="current-password"
          error={errors.current_password}
          {...form.register('current_password', { onChange: () => form.clearErrors('current_password') })}
        />
        <PasswordFields
          password={password}
          confirmation={confirmation}
          {...passwordSetters(form, 'new_password', 'password_confirmation')}
          passwordName="new_password"
          context={user}
          errors={{ password: errors.new_password, confirmation: errors.password_confirmation }}
        />
        <div className="form-actions">
          <PendingButton pending={update.isPending} pendingLabel="Changing…">
            Change password
          </PendingButton>
        </div>
      </form>
    </section>
  );
}

// ---- signature -----------------------------------------------------------------------------

const SIGNATURE_TYPES = ['image/png', 'image/jpeg'];

/** An object URL for a Blob, revoked when the Blob changes or the component goes. */
function useObjectUrl(blob: Blob | null | undefined): string | null {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!blob) {
      setUrl(null);
      return;
    }
    const next = URL.createObjectURL(blob);
    setUrl(next);
    return () => URL.revokeObjectURL(next);
  }, [blob]);
  return url;
}

function SignatureCard({ user }: { user: TUser }) {
  const notify = useNotify();
  const signature = useUserSignature(user.id);
  const upload = useUploadSignature();
  const inputRef = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File | null>(null);
  const [error, setError] = useState<string | undefined>();
  const currentUrl = useObjectUrl(signature.data);
  const previewUrl = useObjectUrl(file);
  const missing = signature.error instanceof ApiError && signature.error.status === 404;

  function choose(chosen: File | undefined) {
    setError(undefined);
    setFile(null);
    if (!chosen) return;
    if (!SIGNATURE_TYPES.includes(chosen.type)) {
      setError('Choose a PNG or JPEG image');
      return;
    }
    if (chosen.size > SIGNATURE_MAX_BYTES) {
      setError('The image is larger than 1 MB');
      return;
    }
    setFile(chosen);
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (upload.isPending) return;
    if (!file) {
      setError('Choose a PNG or JPEG image');
      inputRef.current?.focus();
      return;
    }
    upload.mutate(file, {
      onSuccess: () => {
        notify.success('Signature uploaded');
        setFile(null);
        if (inputRef.current) inputRef.current.value = '';
      },
      onError: (err) => {
        setError(apiFieldErrors(err, ['file'] as const).file);
        notify.notifyFailure('Failed to upload signature', err);
      },
    });
  }

  return (
    <section className="card" aria-labelledby="profile-signature">
      <h2 id="profile-signature">Signature</h2>
      <div className="signature">
        <p className="signature__label">Current signature</p>
        <div className="signature__frame">
          {signature.isPending ? (
            <span className="muted">Loading…</span>
          ) : currentUrl ? (
            <img src={currentUrl} alt="Your current signature" />
          ) : missing ? (
            <span className="muted">No signature uploaded yet.</span>
          ) : (
            <span className="muted">Your signature could not be loaded.</span>
          )}
        </div>
      </div>
      <form className="form" onSubmit={onSubmit} noValidate aria-busy={upload.isPending}>
        <div className="field">
          <label htmlFor="signature-file">New signature image</label>
          <input
            ref={inputRef}
            id="signature-file"
            name="file"
            type="file"
            accept="image/png,image/jpeg"
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? 'signature-file-error signature-file-hint' : 'signature-file-hint'}
            onChange={(e) => choose(e.target.files?.[0])}
          />
          {error ? (
            <p className="field__error" id="signature-file-error">
              {error}
            </p>
          ) : null}
          <p className="field__hint" id="signature-file-hint">
            PNG or JPEG, at most 1 MB.
          </p>
        </div>
        {previewUrl ? (
          <div className="signature__frame">
            <img src={previewUrl} alt="Preview of the new signature" />
          </div>
        ) : null}
        <div className="form-actions">
          <PendingButton pending={upload.isPending} pendingLabel="Uploading…" disabled={!file}>
            Upload signature
          </PendingButton>
        </div>
      </form>
    </section>
  );
}

// ---- two-factor ----------------------------------------------------------------------------

function TwoFactorCard({ user }: { user: TUser }) {
  const notify = useNotify();
  const state = useTwoFactorState();
  const enable = useEnable2fa();
  const verify = useVerify2fa();
  const [codeError, setCodeError] = useState<string | undefined>();
  const [disabling, setDisabling] = useState(false);
  const [renewing, setRenewing] = useState(false);
  const [codes, setCodes] = useState<string[] | null>(null);
  const on = state.data?.isUser2FAEnabled ?? user.is2FAEnabled;
  const left = useRecoveryCodesLeft(on);
  const required = state.data?.isCompany2FAEnabled ?? false;
  const setup = !on && enable.isSuccess ? enable.data : null;

  function start() {
    setCodeError(undefined);
    enable.mutate(undefined, { onError: (error) => notify.notifyFailure(ENABLE_2FA_FAILED, error) });
  }

  function submitCode(code: string) {
    setCodeError(undefined);
    verify.mutate(code, {
      onSuccess: (verified) => {
        setIsUser2FAVerified(true);
        enable.reset();
        if (verified.recovery_codes) setCodes(verified.recovery_codes);
        notify.success(TWO_FACTOR_VERIFIED_MESSAGE, 'Two-factor authentication is on.');
      },
      onError: (error) => {
        notify.notifyFailure(VERIFY_2FA_FAILED, error);
        setCodeError(
          (error instanceof ApiError
            ? error.errors.find((e) => e.path === 'body.code')?.message
            : undefined) ?? VERIFY_2FA_FAILED,
        );
      },
    });
  }

  return (
    <section className="card" aria-labelledby="profile-2fa">
      <div className="card__header">
        <h2 id="profile-2fa">Two-factor authentication</h2>
        <span className={`badge${on ? ' badge--success' : ' badge--neutral'}`}>{on ? 'On' : 'Off'}</span>
      </div>
      <p className="muted">
        {on
          ? 'Signing in asks for a code from your authenticator app after your password.'
          : 'Add a second step to signing in: a code from an authenticator app on your phone.'}
        {required ? ' Your company requires it.' : ''}
      </p>
      {codes ? (
        <RecoveryCodes codes={codes}>
          <button type="button" className="button" onClick={() => setCodes(null)}>
            I have saved them
          </button>
        </RecoveryCodes>
      ) : null}
      {on ? (
        <>
          {left.data ? (
            <p className="muted" data-testid="recovery-codes-left">
              {left.data.remaining === 1
                ? '1 recovery code left.'
                : `${left.data.remaining} recovery codes left.`}{' '}
              Each signs you in once if your phone is not at hand.
            </p>
          ) : null}
          <div className="form-actions">
            <button type="button" className="button button--ghost" onClick={() => setRenewing(true)}>
              Make new recovery codes
            </button>
            <button
              type="button"
              className="button button--ghost"
              onClick={() => setDisabling(true)}
              disabled={required}
              aria-describedby={required ? 'profile-2fa-required' : undefined}
            >
              Turn off two-factor authentication
            </button>
          </div>
          {required ? (
            <p className="field__hint" id="profile-2fa-required">
              It cannot be turned off while your company requires it.
            </p>
          ) : null}
        </>
      ) : setup ? (
        <>
          <TwoFactorEnrolment qrCode={setup.qr_code} secret={setup.secret} />
          <OtpForm
            onCode={submitCode}
            pending={verify.isPending}
            error={codeError}
            submitLabel="Verify and turn on"
            autoFocus
          >
            <button
              type="button"
              className="button button--ghost"
              onClick={() => enable.reset()}
              disabled={verify.isPending}
            >
              Cancel
            </button>
          </OtpForm>
        </>
      ) : (
        <div className="form-actions">
          <PendingButton type="button" pending={enable.isPending} pendingLabel="Preparing…" onClick={start}>
            Turn on two-factor authentication
          </PendingButton>
        </div>
      )}
      {disabling ? <DisableTwoFactorDialog onClose={() => setDisabling(false)} /> : null}
      {renewing ? <NewRecoveryCodesDialog onClose={() => setRenewing(false)} onCodes={setCodes} /> : null}
    </section>
  );
}

function DisableTwoFactorDialog({ onClose }: { onClose: () => void }) {
  const notify = useNotify();
  const disable = useDisable2fa();
  return (
    <CodeOrPasswordDialog
      title="Turn off two-factor authentication?"
      description="Signing in will then ask for your password only."
      submitLabel="Turn off"
      pendingLabel="Turning off…"
      danger
      failure="Failed to disable 2FA"
      mutate={disable.mutate}
      pending={disable.isPending}
      onDone={() => {
        notify.success('Two-factor authentication is off');
        onClose();
      }}
      onClose={onClose}
    />
  );
}

function NewRecoveryCodesDialog({
  onClose,
  onCodes,
}: {
  onClose: () => void;
  onCodes: (codes: string[]) => void;
}) {
  const regenerate = useRegenerateRecoveryCodes();
  return (
    <CodeOrPasswordDialog
      title="Make new recovery codes?"
      description="Your current recovery codes stop working; the new ones are shown once."
      submitLabel="Make new codes"
      pendingLabel="Making codes…"
      failure="Failed to make new recovery codes"
      mutate={regenerate.mutate}
      pending={regenerate.isPending}
      onDone={(issued) => {
        onCodes(issued.recovery_codes);
        onClose();
      }}
      onClose={onClose}
    />
  );
}
