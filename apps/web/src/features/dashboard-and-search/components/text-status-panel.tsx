import { useNotify } from '../../../components/notifications/notification-context';
import { PendingButton } from '../../../components/pending-button';
import { formatDateTime } from '../../../lib/format';
import { useRecognizeText } from '../api/recognize-text';
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
 * name and metadata; when text recognition ran and on how many pages, and (for an editor of
 * an image or a PDF) a button to run it again.
 */
export function TextStatusPanel({ fileId, canEdit = false }: { fileId: number; canEdit?: boolean }) {
  const query = useTextStatus(fileId);
  const recognize = useRecognizeText(fileId);
  const notify = useNotify();
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
      {s.recognition ? (
        <p>
          Text recognised on {s.recognition.pages} {s.recognition.pages === 1 ? 'page' : 'pages'}{' '}
          {formatDateTime(s.recognition.at)} ({s.recognition.languages}).
        </p>
      ) : null}
      {s.error ? <p>{s.error}</p> : null}
      {status === 'failed' || status === 'unsupported' ? (
        <p className="muted">It is still found by its name, metadata, tags and comments.</p>
      ) : null}
      {s.truncated ? (
        <p className="muted">Only the first million characters of its text are searched.</p>
      ) : null}
      {canEdit && s.recognisable && status !== 'pending' ? (
        <PendingButton
          type="button"
          variant="ghost"
          pending={recognize.isPending}
          pendingLabel="Starting…"
          onClick={() =>
            recognize.mutate(undefined, {
              onSuccess: () => notify.success('Text recognition will run again in a moment'),
              onError: (error) => notify.notifyFailure('Failed to start text recognition!', error),
            })
          }
        >
          Recognise text again
        </PendingButton>
      ) : null}
    </section>
  );
}
