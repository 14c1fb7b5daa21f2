import { MAIL_STATUSES, type TMailJob } from '@quire/contract';
import { useId, useState } from 'react';
import { ConfirmDeleteDialog } from '../../../components/confirm-delete-dialog';
import { EmptyText, QueryTable, RefreshButton, RowAction, Timestamp } from '../../../components/data-table';
import { PageNavigation } from '../../../components/pagination';
import { useFailureToast } from '../../../lib/use-failure-toast';
import { type MailQueueQuery, useDeleteMailJob, useMailQueue } from '../api/mail-queue';
import { explainSmtpError, type SmtpTarget } from '../lib/smtp-error';
import { MailStatusBadge } from './mail-status-badge';

export const MAIL_QUEUE_PAGE_SIZE = 20;
type Status = NonNullable<MailQueueQuery['status']>;
const LABELS: Record<Status, string> = {
  queued: 'Queued',
  sending: 'Sending',
  sent: 'Sent',
  failed: 'Failed',
};
const COLUMNS = ['To', 'Subject', 'Status', 'Attempts', 'Last error', 'Queued'];
/** Jobs that can go: waiting or given up (one being sent cannot). */
const DELETABLE = new Set<Status>(['queued', 'failed']);

/** "Failed after 5 attempts" once given up; "1 of 5" while it may still go. */
export function attemptsText(job: Pick<TMailJob, 'status' | 'attempts' | 'max_attempts'>): string {
  if (job.status === 'failed')
    return `Failed after ${job.attempts} ${job.attempts === 1 ? 'attempt' : 'attempts'}`;
  return `${job.attempts} of ${job.max_attempts}`;
}

/** The last error in words, the raw text on a details line under it. */
function LastError({ error, target }: { error: string | null; target: SmtpTarget }) {
  if (!error) return <span className="cell-muted">—</span>;
  const explained = explainSmtpError(error, target);
  if (!explained) return <span className="cell-muted">{error}</span>;
  return (
    <>
      {explained.summary}
      <div className="cell-muted">Details: {explained.detail}</div>
    </>
  );
}

/** The outgoing mail: newest first, filtered by status, a page at a time. */
export function MailQueue({ readOnly, target = {} }: { readOnly: boolean; target?: SmtpTarget }) {
  const id = useId();
  const [status, setStatus] = useState<'' | Status>('');
  const [page, setPage] = useState(1);
  const [deleting, setDeleting] = useState<TMailJob | null>(null);
  const queue = useMailQueue({ page, quantity: MAIL_QUEUE_PAGE_SIZE, ...(status ? { status } : {}) });
  const remove = useDeleteMailJob();
  useFailureToast(queue.error, queue.errorUpdatedAt, 'Failed to load the e-mail queue');
  const rows = queue.data?.items ?? [];
  const canDelete = (job: TMailJob) => !readOnly && DELETABLE.has(job.status);

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
        <RefreshButton query={queue} />
      </div>

      <QueryTable
        query={queue}
        loadingText="Loading the queue…"
        failedText="The queue could not be loaded"
        rows={rows}
        card={false}
        empty={
          <EmptyText title={status ? `No ${LABELS[status].toLowerCase()} e-mails` : 'No e-mails yet'}>
            {status ? 'Choose another status to see the rest.' : 'Messages the product sends appear here.'}
          </EmptyText>
        }
        caption="Outgoing e-mail"
        columns={COLUMNS}
        busy={queue.isFetching}
        cells={(job) => (
          <>
            <td>{job.to}</td>
            <td>
              {job.subject}
              <div className="cell-muted">{job.kind}</div>
            </td>
            <td>
              <MailStatusBadge status={job.status} />
              {job.sent_at ? (
                <div className="cell-muted">
                  <Timestamp iso={job.sent_at} />
                </div>
              ) : null}
            </td>
            <td>{attemptsText(job)}</td>
            <td className="cell-message">
              <LastError error={job.last_error} target={target} />
            </td>
            <td>
              <Timestamp iso={job.created_at} />
            </td>
          </>
        )}
        rowActions={
          !readOnly &&
          ((job) =>
            canDelete(job) ? (
              <RowAction
                label={`Delete the e-mail “${job.subject}” to ${job.to}`}
                danger
                onClick={() => setDeleting(job)}
              >
                Delete
              </RowAction>
            ) : null)
        }
      />

      <PageNavigation data={queue.data} noun="e-mails" onPage={setPage} busy={queue.isFetching} />

      {deleting ? (
        <ConfirmDeleteDialog
          noun="e-mail"
          remove={remove}
          value={deleting.id}
          detail={`The message “${deleting.subject}” to ${deleting.to} was removed from the queue.`}
          pendingLabel="Deleting…"
          failure="Failed to delete e-mail"
          closeOnFailure
          onClose={() => setDeleting(null)}
        >
          <p>
            “{deleting.subject}” to {deleting.to} ({LABELS[deleting.status].toLowerCase()}) is removed from
            the queue
            {deleting.status === 'queued' ? ' and will not be sent' : ''}.
          </p>
        </ConfirmDeleteDialog>
      ) : null}
    </>
  );
}
