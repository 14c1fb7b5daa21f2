import { useState } from 'react';
import { QueryTable, RowAction, Timestamp } from '../../../components/data-table';
import { useNotify } from '../../../components/notifications/notification-context';
import { pagingOf } from '../../../components/pagination';
import { useFailureToast } from '../../../lib/use-failure-toast';
import { useIntakeArrivals, useRetryArrival } from '../api/intake';

/** The recent arrivals with the rule that filed each; a failed one may be taken again. */
export function ArrivalsSection({ canWrite }: { canWrite: boolean }) {
  const [page, setPage] = useState(1);
  const arrivals = useIntakeArrivals(page);
  const retry = useRetryArrival();
  const notify = useNotify();
  useFailureToast(arrivals.error, arrivals.errorUpdatedAt, 'Failed to load arrivals');
  const items = arrivals.data?.items ?? [];
  return (
    <section aria-labelledby="intake-arrivals">
      <h2 id="intake-arrivals">Recent arrivals</h2>
      <QueryTable
        query={arrivals}
        what="arrivals"
        rows={items}
        empty={<p className="muted">Nothing has arrived yet.</p>}
        caption="Recent arrivals"
        columns={['Arrived', 'File', 'Source', 'Status', 'Filed by', 'Reason']}
        busy={arrivals.isFetching}
        pagination={pagingOf(arrivals.data, 'arrivals', setPage, arrivals.isFetching)}
        cells={(a) => (
          <>
            <td>
              <Timestamp iso={a.created_at} />
            </td>
            <td>{a.file ? <a href={`/files/${a.file.id}`}>{a.file.name}</a> : a.file_name}</td>
            <td>{a.source?.name ?? '—'}</td>
            <td>{a.status === 'taken' ? 'Taken' : 'Failed'}</td>
            <td>{a.rule?.name ?? (a.ruled ? 'No rule' : a.status === 'taken' ? 'Waiting' : '—')}</td>
            <td>{a.reason ?? '—'}</td>
          </>
        )}
        rowActions={
          canWrite &&
          ((a) =>
            a.status === 'failed' ? (
              <RowAction
                label={`Take ${a.file_name} again`}
                onClick={() =>
                  retry.mutate(a.id, {
                    onSuccess: ({ message }) => notify.success(message ?? 'It will be taken again'),
                    onError: (error) => notify.notifyFailure('Failed to take it again!', error),
                  })
                }
              >
                Retry
              </RowAction>
            ) : null)
        }
      />
    </section>
  );
}
