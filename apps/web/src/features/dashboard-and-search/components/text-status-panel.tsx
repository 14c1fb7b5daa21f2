import { useTextStatus } from '../api/text-status';

const LABELS = {
  done: 'Its content is searchable',
  pending: 'Its content is being read for search…',
  failed: 'Its content could not be read for search',
  unsupported: 'Its content is not searched',
} as const;

/**
 * Whether the text of a file's current version was read for search, for the file's detail
 * page: when it failed or the type is not read, why, and that the file is still found by its
 * name and metadata.
 */
export function TextStatusPanel({ fileId }: { fileId: number }) {
  const query = useTextStatus(fileId);
  const s = query.data;
  if (!s) return null;
  const status = s.status ?? 'pending';
  return (
    <section className={`card text-status text-status--${status}`} aria-label="Search">
      <h2>Search</h2>
      <p role={status === 'failed' ? 'alert' : undefined}>
        <strong>{LABELS[status]}</strong>
        {s.version_number ? <span className="muted"> (version {s.version_number})</span> : null}
      </p>
      {s.error ? <p>{s.error}</p> : null}
      {status === 'failed' || status === 'unsupported' ? (
        <p className="muted">It is still found by its name, metadata, tags and comments.</p>
      ) : null}
      {s.truncated ? (
        <p className="muted">Only the first million characters of its text are searched.</p>
      ) : null}
    </section>
  );
}
