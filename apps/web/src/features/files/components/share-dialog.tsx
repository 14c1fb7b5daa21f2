import type { TFileDetail } from '@quire/contract';
import { useState } from 'react';
import { Dialog } from '../../../components/dialog';
import { useNotify } from '../../../components/notifications/notification-context';
import { useShare } from '../api/file-mutations';

/** Makes a public link (optional expiry and password) and shows it to copy; revokes live ones. */
export function ShareDialog({ file, onClose }: { file: TFileDetail; onClose: () => void }) {
  const notify = useNotify();
  const share = useShare();
  const [expires, setExpires] = useState('');
  const [password, setPassword] = useState('');
  const [link, setLink] = useState<string | null>(null);

  function make() {
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
        },
        onError: (error) => notify.notifyFailure('Failed to share link!', error),
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
            <button
              type="button"
              className="button button--primary"
              onClick={() => {
                void navigator.clipboard?.writeText(link);
                notify.success('Link copied');
              }}
            >
              Copy link
            </button>
            <button type="button" className="button button--ghost" onClick={onClose}>
              Done
            </button>
          </div>
        </>
      ) : (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            make();
          }}
        >
          <label className="field">
            <span className="field__label">Expires (optional)</span>
            <input
              className="input"
              type="datetime-local"
              value={expires}
              onChange={(e) => setExpires(e.target.value)}
            />
          </label>
          <label className="field">
            <span className="field__label">Password (optional, 8 characters or more)</span>
            <input
              className="input"
              type="password"
              value={password}
              onChange={(e) => setPassword(e.target.value)}
            />
          </label>
          <div className="dialog__actions">
            <button type="button" className="button button--ghost" onClick={onClose}>
              Cancel
            </button>
            <button type="submit" className="button button--primary">
              Create link
            </button>
          </div>
        </form>
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
                  <button
                    type="button"
                    className="button button--link button--small"
                    onClick={() =>
                      share.mutate(
                        { id: file.id, revoke_link_ids: [l.id] },
                        { onError: (error) => notify.notifyFailure('Failed to revoke link!', error) },
                      )
                    }
                  >
                    Revoke
                  </button>
                </li>
              ))}
          </ul>
        </>
      ) : null}
    </Dialog>
  );
}
