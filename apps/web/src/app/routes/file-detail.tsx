import { officePreviewKind } from '@quire/contract';
import { calls } from '@quire/contract/calls';
import { useState } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import { Button } from '../../components/button';
import { PageHeader } from '../../components/page-header';
import { ValueDetails } from '../../components/value-details';
import { useTextMarks } from '../../features/dashboard-and-search/api/text-marks';
import { TextStatusPanel } from '../../features/dashboard-and-search/components/text-status-panel';
import { fileIdFrom, useFileView } from '../../features/file/api/file-queries';
import { FileActionsBar } from '../../features/file/components/file-actions-bar';
import { FileHistory } from '../../features/file/components/file-history';
import { FilePreview } from '../../features/file/components/file-preview';
import { CommentList, OtherFiles, VersionList } from '../../features/file/components/file-sections';
import { OfficePreview } from '../../features/file/components/office-preview';
import { PreviewRegion } from '../../features/file/components/preview-region';
import { ShareDialog } from '../../features/file/components/share-dialog';
import { WorkflowPanel } from '../../features/workflow/components/workflow-panel';
import { callApi } from '../../lib/api-client';
import { ApiError } from '../../lib/api-error';
import { useCurrentUser } from '../../lib/current-user';
import { formatDateTime } from '../../lib/format';
import { useFailureToast } from '../../lib/use-failure-toast';

// The file page: it combines the files area's pieces (preview, versions, comments, other
// files, sharing, the actions); other areas' panels (a workflow's stage) join here.

export function FileDetailPage() {
  const id = fileIdFrom(useParams().id);
  // A search hit opens the preview at the page of the match, its words marked.
  const [search] = useSearchParams();
  const startPage = Number(search.get('page')) || undefined;
  const marks = (search.get('mark') ?? '').split(' ').filter(Boolean);
  // On a recognised page (a scan, an image), where those words are: drawn over the page.
  const markedPage = startPage ?? 1;
  const textMarks = useTextMarks(id, markedPage, marks);
  const recognised = textMarks.data?.recognised
    ? { page: textMarks.data.page, boxes: textMarks.data.marks }
    : undefined;
  const file = useFileView(id);
  const me = useCurrentUser();
  const [sharing, setSharing] = useState(false);
  const missing = id === null || (file.error instanceof ApiError && file.error.status === 404);
  useFailureToast(missing ? null : file.error, file.errorUpdatedAt, 'Failed to load file data');
  const f = file.data;
  if (missing)
    return (
      <PageHeader title="File not found">
        There is no file at this address, or you may not see it.{' '}
        <Link to="/dashboard">Go to the dashboard</Link>
      </PageHeader>
    );
  if (!f)
    return (
      <PageHeader title="File">{file.isError ? 'This file could not be loaded.' : 'Loading…'}</PageHeader>
    );
  return (
    <>
      <PageHeader title={f.name}>
        {f.folder_id ? <Link to={`/files/category/${f.folder_id}`}>{f.folder_name}</Link> : null}
        {f.incremental ? ` · ${f.incremental}` : ''} · version {f.version}
        {f.locked_by ? ` · locked by ${f.locked_by.name}` : ''}
        {f.checked_out_by
          ? ` · checked out by ${f.checked_out_by.name} ${formatDateTime(f.checked_out_at)}`
          : ''}
      </PageHeader>
      <FileActionsBar file={f} userId={me.data?.id ?? 0} />
      {f.permissions.share ? (
        <Button small onClick={() => setSharing(true)}>
          Share link
        </Button>
      ) : null}
      {sharing ? <ShareDialog file={f} onClose={() => setSharing(false)} /> : null}
      <div className="file-page">
        <PreviewRegion>
          {f.preview === 'none' && officePreviewKind(f.mime_type) ? (
            <OfficePreview fileId={f.id} versionId={f.current_version_id} fileName={f.name} />
          ) : (
            <FilePreview
              kind={f.preview}
              name={`${f.id}-${f.current_version_id}`}
              fileName={f.name}
              startPage={startPage}
              marks={marks}
              recognised={recognised}
              load={() =>
                callApi(calls.file.versionPreview, { params: { id: f.current_version_id } }).then(
                  (r) => r.data,
                )
              }
            />
          )}
        </PreviewRegion>
        <div className="file-side">
          <section aria-labelledby="values-heading">
            <h2 id="values-heading">Values</h2>
            <ValueDetails values={f.values} className="details" />
          </section>
          <WorkflowPanel fileId={f.id} canStart={f.permissions.edit} />
          <VersionList file={f} userId={me.data?.id ?? 0} />
          <OtherFiles file={f} />
          <CommentList file={f} />
          <FileHistory file={f} />
          <section aria-labelledby="rights-heading">
            <h2 id="rights-heading">Your rights</h2>
            <p>
              {Object.entries(f.permissions)
                .filter(([, yes]) => yes)
                .map(([right]) => right)
                .join(', ')}
              {f.has_own_permissions ? ' · this file has its own permissions' : ''}
            </p>
          </section>
          <TextStatusPanel fileId={f.id} canEdit={f.permissions.edit} />
        </div>
      </div>
    </>
  );
}
