import type { TPublicFile } from '@quire/contract';
import { calls } from '@quire/contract/calls';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useState } from 'react';
import { useParams } from 'react-router';
import { Button } from '../../../components/button';
import { FormField } from '../../../components/form-field';
import { useNotify } from '../../../components/notifications/notification-context';
import { PageHeader } from '../../../components/page-header';
import { PendingButton } from '../../../components/pending-button';
import { apiQueryOptions, callApi } from '../../../lib/api-client';
import { formatBytes } from '../../../lib/format';
import { saveBlob } from '../../../lib/save-blob';
import { FilePreview } from '../components/file-preview';
import { PreviewRegion } from '../components/preview-region';

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
  const [wrong, setWrong] = useState<string | undefined>();
  const [opening, setOpening] = useState(false);
  const view = useQuery({
    ...apiQueryOptions(calls.file.publicFileView, { params: { id: token }, query: { access } }),
    retry: false,
  });
  const f: TPublicFile | undefined = view.data;
  const content = (disposition: 'inline' | 'attachment') =>
    callApi(calls.file.publicFileContent, { params: { id: token }, query: { access, disposition } }).then(
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
            setOpening(true);
            callApi(calls.file.publicFileUnlock, { params: { id: token }, body: { password } })
              .then(
                (r) => {
                  // The right password: no failure from an earlier try stays on screen.
                  setWrong(undefined);
                  setAccess(r.data.access);
                  notify.success('Link opened');
                },
                (error) => {
                  setWrong('This password does not open the link. Check it and try again.');
                  notify.notifyFailure('Failed to open link!', error);
                },
              )
              .finally(() => setOpening(false));
          }}
        >
          <FormField
            label="Password"
            error={wrong}
            inputClassName="input"
            name="password"
            type="password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
          <PendingButton pending={opening} pendingLabel="Opening…">
            Open
          </PendingButton>
        </form>
      </PublicFrame>
    );
  return (
    <PublicFrame title={f.name ?? 'Shared file'}>
      <p className="muted">
        {f.mime_type} · {formatBytes(f.size ?? 0)}
      </p>
      <Button
        variant="primary"
        onClick={() =>
          content('attachment').then(
            (blob) => saveBlob(blob, f.name ?? 'file'),
            (error) => notify.notifyFailure('Failed to download file', error),
          )
        }
      >
        Download
      </Button>
      <PreviewRegion>
        <FilePreview
          kind={f.preview ?? 'none'}
          name={token}
          fileName={f.name ?? 'Shared file'}
          load={() => content('inline')}
        />
      </PreviewRegion>
    </PublicFrame>
  );
}
