import type { TFileDetail } from '@quire/contract';
import { calls } from '@quire/contract/calls';
import { useState } from 'react';
import { Timestamp } from '../../../components/data-table';
import { useNotify } from '../../../components/notifications/notification-context';
import { Pagination, pagingOf } from '../../../components/pagination';
import { PendingButton } from '../../../components/pending-button';
import { callApi } from '../../../lib/api-client';
import { saveBlob } from '../../../lib/save-blob';
import { useFileActivity } from '../api/file-queries';

/**
 * The file's history: every change (values, name, category, permissions, other files,
 * versions, lock and check-out), newest first, ten at a time (GET /api/file-activity/{id});
 * the record export lists them all with its values and versions (GET
 * /api/export-files-main/{id}, an .xlsx).
 */
export function FileHistory({ file }: { file: TFileDetail }) {
  const notify = useNotify();
  const [busy, setBusy] = useState(false);
  const [page, setPage] = useState(1);
  const activity = useFileActivity(file.id, page);
  const paging = pagingOf(activity.data, 'changes', setPage, activity.isFetching);
  return (
    <section aria-labelledby="history-heading">
      <h2 id="history-heading">History</h2>
      {activity.isPending ? (
        <p className="muted">Loading the history…</p>
      ) : activity.isError ? (
        <p role="alert">The history could not be loaded.</p>
      ) : activity.data.total === 0 ? (
        <p className="muted">No changes recorded yet.</p>
      ) : (
        <>
          <ol className="timeline" aria-label="Changes, newest first">
            {activity.data.items.map((e) => (
              <li key={e.id}>
                <div>{e.message}</div>
                <div className="muted">
                  {e.by ?? 'Quire'} · <Timestamp iso={e.created_at} />
                </div>
              </li>
            ))}
          </ol>
          {paging && paging.lastPage > 1 ? <Pagination {...paging} /> : null}
        </>
      )}
      <PendingButton
        type="button"
        variant="ghost"
        pending={busy}
        pendingLabel="Preparing the record…"
        onClick={() => {
          setBusy(true);
          callApi(calls.fileActions.exportFilesMain, { params: { id: file.id } })
            .then(
              (r) => {
                saveBlob(r.data, `${file.name} record.xlsx`);
                notify.success('Record downloaded', 'Its Activity sheet lists every change.');
              },
              (error) => notify.notifyFailure('Failed to export file record!', error),
            )
            .finally(() => setBusy(false));
        }}
      >
        Download the record with its history (.xlsx)
      </PendingButton>
    </section>
  );
}
