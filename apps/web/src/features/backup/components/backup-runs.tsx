import type { TBackup } from '@quire/contract';
import { useState } from 'react';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { DataTable, RowAction, Timestamp } from '../../../components/data-table';
import { useNotify } from '../../../components/notifications/notification-context';
import { formatBytes } from '../../../lib/format';
import { useDeleteBackup } from '../api/delete-backup';
import { useDeleteBackupFile } from '../api/delete-backup-file';

const STATUS: Record<TBackup['status'], { label: string; tone: string }> = {
  queued: { label: 'Waiting', tone: 'neutral' },
  running: { label: 'Running', tone: 'warning' },
  succeeded: { label: 'Done', tone: 'success' },
  failed: { label: 'Failed', tone: 'error' },
  restoring: { label: 'Restoring', tone: 'warning' },
  restored: { label: 'Restored', tone: 'success' },
};
const KIND: Record<TBackup['kind'], string> = {
  manual: 'Manual',
  scheduled: 'Scheduled',
  uploaded: 'Uploaded',
};
const BUSY = new Set(['queued', 'running', 'restoring']);

/** The backup runs, with progress while one runs, and deleting a run or only its archive. */
export function BackupRuns({ runs, readOnly }: { runs: TBackup[]; readOnly: boolean }) {
  const notify = useNotify();
  const removeRun = useDeleteBackup();
  const removeFile = useDeleteBackupFile();
  const [deleting, setDeleting] = useState<{ run: TBackup; what: 'run' | 'file' } | null>(null);
  const pending = removeRun.isPending || removeFile.isPending;

  const confirm = () => {
    if (!deleting) return;
    const { run, what } = deleting;
    const mutation = what === 'run' ? removeRun : removeFile;
    mutation.mutate(run.id, {
      onSuccess: () => {
        notify.success(what === 'run' ? 'Backup deleted' : 'Backup file deleted', run.file_name ?? undefined);
        setDeleting(null);
      },
      onError: (error) => {
        notify.notifyFailure('Failed to delete backup!', error);
        setDeleting(null);
      },
    });
  };

  return (
    <>
      <DataTable
        caption="Backup runs"
        columns={['Backup', 'Status', 'Size', 'By', 'Started']}
        actions={!readOnly}
      >
        {runs.map((run) => (
          <tr key={run.id}>
            <td>
              {run.file_name ?? `Backup #${run.id}`}
              <div className="cell-muted">
                {KIND[run.kind]}
                {run.migration ? ` · schema ${run.migration}` : ''}
                {run.has_file || !run.file_name ? '' : ' · file deleted'}
              </div>
            </td>
            <td>
              <span className={`badge badge--${STATUS[run.status].tone}`}>{STATUS[run.status].label}</span>
              {BUSY.has(run.status) ? (
                <div>
                  <progress
                    max={100}
                    value={run.progress}
                    aria-label={`${STATUS[run.status].label}: ${run.progress}%`}
                  />{' '}
                  <span className="cell-muted">{run.progress}%</span>
                </div>
              ) : null}
              {run.error ? <div className="cell-muted">{run.error}</div> : null}
              {run.restored_at ? (
                <div className="cell-muted">
                  Restored <Timestamp iso={run.restored_at} />
                </div>
              ) : null}
            </td>
            <td>{run.size === null ? '—' : formatBytes(run.size)}</td>
            <td>{run.requested_by ?? '—'}</td>
            <td>
              <Timestamp iso={run.started_at ?? run.created_at} />
            </td>
            {readOnly ? null : (
              <td className="cell-actions">
                {BUSY.has(run.status) ? null : (
                  <>
                    {run.has_file ? (
                      <RowAction
                        label={`Delete file of ${run.file_name ?? `backup #${run.id}`}`}
                        onClick={() => setDeleting({ run, what: 'file' })}
                      >
                        Delete file
                      </RowAction>
                    ) : null}
                    <RowAction
                      label={`Delete ${run.file_name ?? `backup #${run.id}`}`}
                      danger
                      onClick={() => setDeleting({ run, what: 'run' })}
                    >
                      Delete
                    </RowAction>
                  </>
                )}
              </td>
            )}
          </tr>
        ))}
      </DataTable>
      {deleting ? (
        <ConfirmDialog
          title={deleting.what === 'run' ? 'Delete this backup?' : 'Delete the backup file?'}
          confirmLabel="Delete"
          pendingLabel="Deleting…"
          tone="danger"
          pending={pending}
          onConfirm={confirm}
          onCancel={() => setDeleting(null)}
        >
          {deleting.what === 'run'
            ? `${deleting.run.file_name ?? 'This backup'} and its archive will be gone for good.`
            : `The archive of ${deleting.run.file_name ?? 'this backup'} will be gone; the run stays in the list.`}
        </ConfirmDialog>
      ) : null}
    </>
  );
}
