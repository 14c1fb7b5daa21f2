import { contract, type TPublicFile } from '@quire/contract';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useParams } from 'react-router';
import { LandingPage } from '../../../components/landing-page';
import { useNotify } from '../../../components/notifications/notification-context';
import { apiQueryOptions, callApi } from '../../../lib/api-client';
import { formatBytes } from '../../../lib/format';
import { saveBlob } from '../../../lib/save-blob';
import { FilePreview } from '../components/file-preview';

/** A public link, signed out: the file it shows (after its password, when it has one). */
export function PublicPreviewPage() {
  const token = useParams().token ?? '';
  const notify = useNotify();
  const [access, setAccess] = useState<string | undefined>();
  const [password, setPassword] = useState('');
  const view = useQuery({
    ...apiQueryOptions(contract.file.publicFileView, { params: { id: token }, query: { access } }),
    retry: false,
  });
  const f: TPublicFile | undefined = view.data;
  const content = (disposition: 'inline' | 'attachment') =>
    callApi(contract.file.publicFileContent, { params: { id: token }, query: { access, disposition } }).then(
      (r) => r.data,
    );

  if (view.isError)
    return (
      <LandingPage title="Link not available">
        <p>This link does not work. It may be mistyped, expired or revoked.</p>
      </LandingPage>
    );
  if (!f) return <LandingPage title="Shared file">{null}</LandingPage>;
  if (f.password_required)
    return (
      <LandingPage title="Shared file">
        <form
          onSubmit={(e) => {
            e.preventDefault();
            callApi(contract.file.publicFileUnlock, { params: { id: token }, body: { password } }).then(
              (r) => setAccess(r.data.access),
              (error) => notify.notifyFailure('Failed to open link!', error),
            );
          }}
        >
          <label className="field">
            <span className="field__label">Password</span>
            <input
              className="input"
              type="password"
              value={password}
              onChange={(e) => setPassword(e.target.value)}
            />
          </label>
          <button type="submit" className="button button--primary">
            Open
          </button>
        </form>
      </LandingPage>
    );
  return (
    <LandingPage title={f.name ?? 'Shared file'}>
      <p className="muted">
        {f.mime_type} · {formatBytes(f.size ?? 0)}
      </p>
      <button
        type="button"
        className="button button--primary"
        onClick={() =>
          content('attachment').then(
            (blob) => saveBlob(blob, f.name ?? 'file'),
            (error) => notify.notifyFailure('Failed to download file', error),
          )
        }
      >
        Download
      </button>
      <div className="file-preview">
        <FilePreview kind={f.preview ?? 'none'} name={token} load={() => content('inline')} />
      </div>
    </LandingPage>
  );
}
