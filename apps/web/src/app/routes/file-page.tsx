import { Link, useParams } from 'react-router';
import { PageHeader } from '../../components/page-header';
import { useTextStatus } from '../../features/dashboard-and-search/api/text-status';
import { TextStatusPanel } from '../../features/dashboard-and-search/components/text-status-panel';
import { formatBytes, formatDateTime } from '../../lib/format';

/**
 * A file's page as far as the search area knows it: what it is, and whether its content is
 * searchable. The files area's detail page (versions, comments, actions) takes this route
 * over and keeps the TextStatusPanel in it.
 */
export function FilePage() {
  const id = Number(useParams().id);
  const status = useTextStatus(id);
  const file = status.data?.file;
  if (status.isError)
    return (
      <div className="card empty-state" role="alert">
        <h1>File not found</h1>
        <p className="muted">It does not exist, or it is not shared with you.</p>
        <Link to="/dashboard">Back to the dashboard</Link>
      </div>
    );
  if (!file) return <p className="muted">Loading the file…</p>;
  return (
    <>
      <PageHeader title={file.name} />
      <section className="card" aria-label="File">
        <dl className="details">
          <dt>Category</dt>
          <dd>{file.category?.name ?? 'Not indexed yet'}</dd>
          <dt>Owner</dt>
          <dd>{file.owner.name}</dd>
          <dt>Type</dt>
          <dd>{file.mime_type ?? '—'}</dd>
          <dt>Size</dt>
          <dd>{file.size === null ? '—' : formatBytes(file.size)}</dd>
          <dt>Changed</dt>
          <dd>{formatDateTime(file.updated_at)}</dd>
        </dl>
      </section>
      <TextStatusPanel fileId={id} />
    </>
  );
}
