import { contract, type TPublicFile } from '@quire/contract';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useState } from 'react';
import { useParams } from 'react-router';
import { useNotify } from '../../../components/notifications/notification-context';
import { PageHeader } from '../../../components/page-header';
import { apiQueryOptions, callApi } from '../../../lib/api-client';
import { formatBytes } from '../../../lib/format';
import { saveBlob } from '../../../lib/save-blob';
import { FilePreview } from '../components/file-preview';

/** The frame of a page people reach without signing in. */
function PublicFrame({ title, children }: { title: string; children: ReactNode }) {
  return (
    <main id="main" className="public-page">
      <PageHeader title={title} />
      {children}
    </main>
  );
}

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
      <PublicFrame title="Link not available">
        <p>This link does not work. It may be mistyped, expired or revoked.</p>
      </PublicFrame>
    );
  if (!f) return <PublicFrame title="Shared file">{null}</PublicFrame>;
  if (f.password_required)
    return (
      <PublicFrame title="Shared file">
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
      </PublicFrame>
    );
  return (
    <PublicFrame title={f.name ?? 'Shared file'}>
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
    </PublicFrame>
  );
}
