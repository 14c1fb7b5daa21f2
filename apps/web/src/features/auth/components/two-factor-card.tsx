import type { TUser } from '@quire/contract';
import { useState } from 'react';
import { Button } from '../../../components/button';
import { useNotify } from '../../../components/notifications/notification-context';
import { PendingButton } from '../../../components/pending-button';
import { ApiError } from '../../../lib/api-error';
import { setIsUser2FAVerified } from '../../../lib/storage';
import { useDisable2fa } from '../api/disable-2fa';
import { useEnable2fa } from '../api/enable-2fa';
import { useRecoveryCodesLeft, useRegenerateRecoveryCodes } from '../api/recovery-codes';
import { useTwoFactorState } from '../api/two-factor-state';
import { useVerify2fa } from '../api/verify-2fa';
import { ENABLE_2FA_FAILED, TWO_FACTOR_VERIFIED_MESSAGE, VERIFY_2FA_FAILED } from '../lib/two-factor';
import { CodeOrPasswordDialog } from './code-or-password-dialog';
import { OtpForm } from './otp-form';
import { RecoveryCodes } from './recovery-codes';
import { TwoFactorEnrolment } from './two-factor-enrolment';

/** The profile's two-factor card: turn it on (enrol, verify), see recovery codes left, renew them, turn it off. */
export function TwoFactorCard({ user }: { user: TUser }) {
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
          <Button onClick={() => setCodes(null)}>I have saved them</Button>
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
            <Button variant="ghost" onClick={() => setRenewing(true)}>
              Make new recovery codes
            </Button>
            <Button
              variant="ghost"
              onClick={() => setDisabling(true)}
              disabled={required}
              aria-describedby={required ? 'profile-2fa-required' : undefined}
            >
              Turn off two-factor authentication
            </Button>
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
            <Button variant="ghost" onClick={() => enable.reset()} disabled={verify.isPending}>
              Cancel
            </Button>
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
