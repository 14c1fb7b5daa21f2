import type { TSignInSettings } from '@quire/contract';
import { type ReactNode, useId, useState } from 'react';
import { Link } from 'react-router';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { QueryState } from '../../../components/data-table';
import { useNotify } from '../../../components/notifications/notification-context';
import { PageHeader } from '../../../components/page-header';
import { ApiError } from '../../../lib/api-error';
import { useAreaAccess } from '../../../lib/permissions';
import { useFailureToast } from '../../../lib/use-failure-toast';
import { useSignInSettings } from '../api/sign-in-settings';
import { useTwoFactorState } from '../api/two-factor-state';
import { useUpdateSignInSettings } from '../api/update-sign-in-settings';

export const SAVE_SIGN_IN_SETTINGS_FAILED = 'Failed to save sign-in settings!';

/** /admin/sign-in-security: the company-wide sign-in rules (2FA for everyone, self-registration). */
export function SignInSecurityPage() {
  const { canWrite } = useAreaAccess('settings');
  const settings = useSignInSettings();
  useFailureToast(settings.error, settings.errorUpdatedAt, 'Failed to load sign-in settings');

  return (
    <>
      <PageHeader title="Sign-in security">How everyone in your company signs in to Quire.</PageHeader>
      {canWrite ? null : (
        <div className="section-header">
          <span className="badge badge--neutral">Read only</span>
        </div>
      )}
      <QueryState query={settings} what="sign-in settings">
        {settings.data ? <SignInSettingsForm settings={settings.data} readOnly={!canWrite} /> : null}
      </QueryState>
    </>
  );
}

export const OWN_2FA_FIRST =
  'Turn on two-factor authentication for your own account before requiring it for everyone';

function SignInSettingsForm({ settings, readOnly }: { settings: TSignInSettings; readOnly: boolean }) {
  const notify = useNotify();
  const update = useUpdateSignInSettings();
  const ownTwoFactor = useTwoFactorState();
  const [confirming, setConfirming] = useState(false);
  /** The API's refusal to require 2FA while the admin has none of their own. */
  const [needsOwn2fa, setNeedsOwn2fa] = useState<string | null>(null);

  const save = (change: Partial<TSignInSettings>, done: string) =>
    update.mutate(change, {
      onSuccess: () => {
        setConfirming(false);
        setNeedsOwn2fa(null);
        notify.success('Sign-in settings saved', done);
      },
      onError: (error) => {
        setConfirming(false);
        if (error instanceof ApiError && error.status === 409) setNeedsOwn2fa(error.message);
        notify.notifyFailure(SAVE_SIGN_IN_SETTINGS_FAILED, error);
      },
    });

  const disabled = readOnly || update.isPending;
  return (
    <section className="card" aria-label="Sign-in settings" aria-busy={update.isPending || undefined}>
      <SettingSwitch
        label="Require two-factor authentication for everyone"
        description="Everyone signs in with a code from an authenticator app as well as their password. People who have not set it up yet are asked to at their next sign-in."
        checked={settings.require_2fa}
        disabled={disabled}
        onChange={(on) => {
          if (!on) {
            save({ require_2fa: false }, 'Two-factor authentication is no longer required for everyone.');
            return;
          }
          // Checked before the serious confirmation, not after it (issue 10, item 6).
          if (ownTwoFactor.data && !ownTwoFactor.data.isUser2FAEnabled) {
            setNeedsOwn2fa(OWN_2FA_FIRST);
            return;
          }
          setConfirming(true);
        }}
      >
        {needsOwn2fa ? (
          <div className="alert alert--error" role="alert">
            {needsOwn2fa.replace(/\.$/, '')}.{' '}
            <Link to="/profile">Set up two-factor authentication on your profile</Link>
          </div>
        ) : null}
      </SettingSwitch>
      <SettingSwitch
        label="Allow self-registration"
        description="Anyone can create an account from the sign-in page. New accounts are General staff, and stay inactive until their e-mail address is verified."
        checked={settings.self_registration}
        disabled={disabled}
        onChange={(on) =>
          save(
            { self_registration: on },
            on ? 'People can now create their own accounts.' : 'Only administrators can create accounts now.',
          )
        }
      />
      {confirming ? (
        <ConfirmDialog
          title="Require two-factor authentication for everyone?"
          confirmLabel="Require two-factor authentication"
          pendingLabel="Saving…"
          pending={update.isPending}
          onConfirm={() =>
            save({ require_2fa: true }, 'Two-factor authentication is now required for everyone.')
          }
          onCancel={() => setConfirming(false)}
        >
          <p>
            Every session that has not passed two-factor verification is put on hold at once: those people
            must verify with a code, or set up an authenticator app, before they can go on.
          </p>
          <p>Anyone without two-factor authentication sets it up at their next sign-in.</p>
        </ConfirmDialog>
      ) : null}
    </section>
  );
}

/** One on/off setting: a labelled switch with what it does. */
function SettingSwitch({
  label,
  description,
  checked,
  disabled,
  onChange,
  children,
}: {
  label: string;
  description: string;
  checked: boolean;
  disabled: boolean;
  onChange: (on: boolean) => void;
  children?: ReactNode;
}) {
  const id = useId();
  return (
    <div className="setting">
      <div className="setting__text">
        <label htmlFor={id} className="setting__label">
          {label}
        </label>
        <p className="muted" id={`${id}-description`}>
          {description}
        </p>
        {children}
      </div>
      <input
        id={id}
        type="checkbox"
        role="switch"
        className="switch"
        checked={checked}
        aria-checked={checked}
        disabled={disabled}
        aria-describedby={`${id}-description`}
        onChange={(e) => onChange(e.target.checked)}
      />
    </div>
  );
}
