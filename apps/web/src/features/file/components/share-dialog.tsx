import type { TFileDetail } from '@quire/contract';
import { useState } from 'react';
import { Button } from '../../../components/button';
import { Dialog } from '../../../components/dialog';
import { FormField } from '../../../components/form-field';
import { useNotify } from '../../../components/notifications/notification-context';
import { apiFieldErrors, type FieldErrors, stateFieldBinder } from '../../../lib/field-errors';
import { useShare } from '../api/file-mutations';
import { DialogForm } from './dialog-form';

/** The shortest link password the API takes (ZShareFileBody). */
const PASSWORD_MIN = 8;

/** Makes a public link (optional expiry and password) and shows it to copy; revokes live ones. */
export function ShareDialog({ file, onClose }: { file: TFileDetail; onClose: () => void }) {
  const notify = useNotify();
  const share = useShare();
  const [expires, setExpires] = useState('');
  const [password, setPassword] = useState('');
  const [link, setLink] = useState<string | null>(null);
  const [errors, setErrors] = useState<FieldErrors<'password' | 'expires_at'>>({});
  const bind = stateFieldBinder(errors);

  function make() {
    if (password && password.length < PASSWORD_MIN) {
      setErrors({ password: `Use at least ${PASSWORD_MIN} characters` });
      document.querySelector<HTMLInputElement>('input[name="password"]')?.focus();
      return;
    }
    setErrors({});
    share.mutate(
      {
        id: file.id,
        public_link: true,
        expires_at: expires ? new Date(expires).toISOString() : null,
        ...(password ? { password } : {}),
      },
      {
        onSuccess: (res) => {
          const made = (res as { data: { link: { path: string } | null } }).data.link;
          if (made) setLink(`${window.location.origin}${made.path}`);
          notify.success('Link created', 'Copy it now: it is shown only once.');
        },
        onError: (error) => {
          setErrors(apiFieldErrors(error, ['password', 'expires_at']));
          notify.notifyFailure('Failed to share link!', error);
        },
      },
    );
  }

  return (
    <Dialog title="Share a link" onClose={onClose} busy={share.isPending}>
      {link ? (
        <>
          <label className="field">
            <span className="field__label">Link</span>
            <input
              className="input"
              readOnly
              value={link}
              aria-label="Share link"
              onFocus={(e) => e.target.select()}
            />
          </label>
          <div className="dialog__actions">
            <Button
              variant="primary"
              onClick={() => {
                void navigator.clipboard?.writeText(link);
                notify.success('Link copied');
              }}
            >
              Copy link
            </Button>
            <Button variant="ghost" onClick={onClose}>
              Done
            </Button>
          </div>
        </>
      ) : (
        <DialogForm
          noValidate
          onSubmit={make}
          onCancel={onClose}
          pending={share.isPending}
          pendingLabel="Creating…"
          submitLabel="Create link"
        >
          <FormField
            label="Expires (optional)"
            inputClassName="input"
            type="datetime-local"
            {...bind('expires_at', expires, setExpires)}
          />
          <FormField
            label={`Password (optional, ${PASSWORD_MIN} characters or more)`}
            inputClassName="input"
            type="password"
            autoComplete="new-password"
            {...bind('password', password, setPassword)}
          />
        </DialogForm>
      )}
      {file.links.filter((l) => l.live).length ? (
        <>
          <h3>Live links</h3>
          <ul className="plain-list">
            {file.links
              .filter((l) => l.live)
              .map((l) => (
                <li key={l.id}>
                  {l.has_password ? 'With password' : 'Open'} · {l.download_count} downloads{' '}
                  <Button
                    variant="link"
                    small
                    disabled={share.isPending}
                    onClick={() =>
                      share.mutate(
                        { id: file.id, revoke_link_ids: [l.id] },
                        {
                          onSuccess: () => notify.success('Link revoked', 'It no longer opens the file.'),
                          onError: (error) => notify.notifyFailure('Failed to revoke link!', error),
                        },
                      )
                    }
                  >
                    Revoke
                  </Button>
                </li>
              ))}
          </ul>
        </>
      ) : null}
    </Dialog>
  );
}
