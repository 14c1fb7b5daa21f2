import { MAIL_STATUSES, type TMailJob } from '@quire/contract';
import { useId, useState } from 'react';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { useNotify } from '../../../components/notifications/notification-context';
import { Pagination } from '../../../components/pagination';
import { formatDateTime, relativeTime } from '../../../lib/format';
import { useFailureToast } from '../../../lib/use-failure-toast';
import { useDeleteMailJob } from '../api/delete-mail-job';
import { type MailQueueQuery, useMailQueue } from '../api/get-mail-queue';
import { MailStatusBadge } from './mail-status-badge';

export const MAIL_QUEUE_PAGE_SIZE = 20;
type Status = NonNullable<MailQueueQuery['status']>;
const LABELS: Record<Status, string> = {
  queued: 'Queued',
  sending: 'Sending',
  sent: 'Sent',
  failed: 'Failed',
};
/** Jobs that can go: waiting or given up (one being sent cannot). */
const DELETABLE = new Set<Status>(['queued', 'failed']);

/** The outgoing mail: newest first, filtered by status, a page at a time. */
export function MailQueue({ readOnly }: { readOnly: boolean }) {
  const id = useId();
  const notify = useNotify();
  const [status, setStatus] = useState<'' | Status>('');
  const [page, setPage] = useState(1);
  const [deleting, setDeleting] = useState<TMailJob | null>(null);
  const queue = useMailQueue({ page, quantity: MAIL_QUEUE_PAGE_SIZE, ...(status ? { status } : {}) });
  const remove = useDeleteMailJob();
  useFailureToast(queue.error, queue.errorUpdatedAt, 'Failed to load the e-mail queue');
  const rows = queue.data?.items ?? [];
  const canDelete = (job: TMailJob) => !readOnly && DELETABLE.has(job.status);

  const confirmDelete = (job: TMailJob) =>
    remove.mutate(job.id, {
      onSuccess: () => {
        notify.success(
          'E-mail deleted',
          `The message “${job.subject}” to ${job.to} was removed from the queue.`,
        );
        setDeleting(null);
      },
      onError: (error) => {
        notify.notifyFailure('Failed to delete e-mail', error);
        setDeleting(null);
      },
    });

  return (
    <>
      <div className="toolbar">
        <div className="field">
          <label htmlFor={`${id}-status`}>Status</label>
          <select
            id={`${id}-status`}
            value={status}
            onChange={(e) => {
              setStatus(e.target.value as '' | Status);
              setPage(1);
            }}
          >
            <option value="">All</option>
            {MAIL_STATUSES.map((s) => (
              <option key={s} value={s}>
                {LABELS[s]}
              </option>
            ))}
          </select>
        </div>
        <button
          type="button"
          className="button button--ghost"
          onClick={() => queue.refetch()}
          disabled={queue.isFetching}
        >
          {queue.isFetching && !queue.isPending ? 'Refreshing…' : 'Refresh'}
        </button>
      </div>

      {queue.isPending ? (
        <div className="empty-state" role="status">
          <span className="spinner" aria-hidden="true" />
          <p className="muted">Loading the queue…</p>
        </div>
      ) : queue.isError && !queue.data ? (
        <div className="empty-state" role="alert">
          <h2>The queue could not be loaded</h2>
          <button type="button" className="button button--ghost" onClick={() => queue.refetch()}>
            Try again
          </button>
        </div>
      ) : rows.length === 0 ? (
        <div className="empty-state">
          <h2>{status ? `No ${LABELS[status].toLowerCase()} e-mails` : 'No e-mails yet'}</h2>
          <p className="muted">
            {status ? 'Choose another status to see the rest.' : 'Messages the product sends appear here.'}
          </p>
        </div>
      ) : (
        <div className="table-wrap">
          <table className="data-table" aria-busy={queue.isFetching || undefined}>
            <caption className="sr-only">Outgoing e-mail</caption>
            <thead>
              <tr>
                <th scope="col">To</th>
                <th scope="col">Subject</th>
                <th scope="col">Status</th>
                <th scope="col">Attempts</th>
                <th scope="col">Last error</th>
                <th scope="col">Queued</th>
                {readOnly ? null : (
                  <th scope="col" className="cell-actions">
                    <span className="sr-only">Actions</span>
                  </th>
                )}
              </tr>
            </thead>
            <tbody>
              {rows.map((job) => (
                <tr key={job.id}>
                  <td>{job.to}</td>
                  <td>
                    {job.subject}
                    <div className="cell-muted">{job.kind}</div>
                  </td>
                  <td>
                    <MailStatusBadge status={job.status} />
                    {job.sent_at ? (
                      <div className="cell-muted">
                        <time dateTime={job.sent_at} title={formatDateTime(job.sent_at)}>
                          {relativeTime(job.sent_at)}
                        </time>
                      </div>
                    ) : null}
                  </td>
                  <td>
                    {job.attempts} of {job.max_attempts}
                  </td>
                  <td className="cell-muted">{job.last_error ?? '—'}</td>
                  <td>
                    <time dateTime={job.created_at} title={formatDateTime(job.created_at)}>
                      {relativeTime(job.created_at)}
                    </time>
                  </td>
                  {readOnly ? null : (
                    <td className="cell-actions">
                      {canDelete(job) ? (
                        <button
                          type="button"
                          className="button button--link button--small is-danger"
                          aria-label={`Delete the e-mail “${job.subject}” to ${job.to}`}
                          onClick={() => setDeleting(job)}
                        >
                          Delete
                        </button>
                      ) : null}
                    </td>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}

      {queue.data && queue.data.total > 0 ? (
        <Pagination
          page={queue.data.page}
          lastPage={queue.data.last_page}
          total={queue.data.total}
          quantity={queue.data.quantity}
          noun="e-mails"
          onPage={setPage}
          busy={queue.isFetching}
        />
      ) : null}

      {deleting ? (
        <ConfirmDialog
          title="Delete this e-mail?"
          confirmLabel="Delete e-mail"
          pendingLabel="Deleting…"
          tone="danger"
          pending={remove.isPending}
          onConfirm={() => confirmDelete(deleting)}
          onCancel={() => setDeleting(null)}
        >
          <p>
            “{deleting.subject}” to {deleting.to} ({LABELS[deleting.status].toLowerCase()}) is removed from
            the queue
            {deleting.status === 'queued' ? ' and will not be sent' : ''}.
          </p>
        </ConfirmDialog>
      ) : null}
    </>
  );
}
