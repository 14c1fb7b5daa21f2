import type { TBackupFile } from '@quire/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { Button } from '../../../components/button';
import { CardSection } from '../../../components/card-section';
import {
  EmptyText,
  QueryState,
  QueryTable,
  RefreshButton,
  RowAction,
  Timestamp,
} from '../../../components/data-table';
import { useNotify } from '../../../components/notifications/notification-context';
import { PageHeader } from '../../../components/page-header';
import { useCurrentUser } from '../../../lib/current-user';
import { formatBytes } from '../../../lib/format';
import { useFailureToast } from '../../../lib/use-failure-toast';
import { useCreateBackup } from '../api/create-backup';
import { useBackupFiles } from '../api/get-backup-files';
import { useBackups } from '../api/get-backups';
import { invalidateBackups } from '../api/invalidate';
import { ArchiveDialog } from '../components/archive-dialog';
import { BackupRuns } from '../components/backup-runs';
import { ScheduleForm } from '../components/schedule-form';
import { UploadBackupDialog } from '../components/upload-backup-dialog';

/** Backups: make one (with progress), the schedule, upload, download and restore. */
export function BackupsPage() {
  const notify = useNotify();
  const { user } = useCurrentUser();
  // Every change here is the Company Admin's (the API says so too); others see the lists.
  const canManage = user?.access_type === 'COMPANY ADMIN';
  const twoFactor = Boolean(user?.is2FAEnabled);
  const runs = useBackups();
  const files = useBackupFiles();
  const create = useCreateBackup();
  const [dialog, setDialog] = useState<
    { kind: 'upload' } | { kind: 'download' | 'restore'; archive: TBackupFile } | null
  >(null);
  useFailureToast(runs.error, runs.errorUpdatedAt, 'Failed to load backups');
  useFailureToast(files.error, files.errorUpdatedAt, 'Failed to load backup files');
  const busy = runs.data?.items.some((b) => ['queued', 'running', 'restoring'].includes(b.status)) ?? false;
  // When a backup or a restore ends, its archive (or the restored data) shows at once.
  const queryClient = useQueryClient();
  const wasBusy = useRef(busy);
  useEffect(() => {
    if (wasBusy.current && !busy) void invalidateBackups(queryClient);
    wasBusy.current = busy;
  }, [busy, queryClient]);

  const start = () =>
    create.mutate(undefined, {
      onSuccess: () => notify.success('Backup started', 'Its progress shows in the list below.'),
      onError: (error) => notify.notifyFailure('Failed to create backup!', error),
    });

  return (
    <>
      <PageHeader title="Backups">
        One archive of the whole system: every record, every file and a manifest of checksums.
      </PageHeader>

      <CardSection
        headingId="runs-heading"
        title="Backup runs"
        aside={
          <div className="toolbar">
            <RefreshButton query={runs} />
            {canManage ? (
              <>
                <Button variant="ghost" onClick={() => setDialog({ kind: 'upload' })}>
                  Upload backup
                </Button>
                <Button variant="primary" onClick={start} disabled={create.isPending || busy}>
                  {create.isPending ? 'Starting…' : 'Create backup'}
                </Button>
              </>
            ) : null}
          </div>
        }
      >
        <QueryState
          query={runs}
          what="backups"
          isEmpty={(runs.data?.items.length ?? 0) === 0}
          card={false}
          empty={<EmptyText title="No backups yet">Create one, or set a schedule below.</EmptyText>}
        >
          <BackupRuns runs={runs.data?.items ?? []} readOnly={!canManage} />
        </QueryState>
      </CardSection>

      <section className="card" aria-labelledby="files-heading">
        <h2 id="files-heading">Backup files</h2>
        <QueryTable
          query={files}
          what="backup files"
          rows={files.data}
          card={false}
          empty={<p className="muted">No archive to download or restore yet.</p>}
          caption="Backup files"
          columns={['File', 'Size', 'Made by', 'Created', 'Verified']}
          cells={(f) => (
            <>
              <td>
                {f.file_name}
                <div className="cell-muted">
                  {f.quire_version ? `Quire ${f.quire_version}` : ''}
                  {f.migration ? ` · schema ${f.migration}` : ''}
                </div>
              </td>
              <td>{formatBytes(f.size)}</td>
              <td>{f.created_by ?? '—'}</td>
              <td>
                <Timestamp iso={f.created_at} />
              </td>
              <td>
                {f.verified_at ? (
                  <span className="badge badge--success">Checksums match</span>
                ) : (
                  <span className="badge badge--neutral">Not checked</span>
                )}
              </td>
            </>
          )}
          rowActions={
            canManage &&
            ((f) => (
              <>
                <RowAction
                  label={`Download ${f.file_name}`}
                  onClick={() => setDialog({ kind: 'download', archive: f })}
                >
                  Download
                </RowAction>
                <RowAction
                  label={`Restore ${f.file_name}`}
                  danger
                  onClick={() => setDialog({ kind: 'restore', archive: f })}
                >
                  Restore
                </RowAction>
              </>
            ))
          }
        />
      </section>

      <section className="card" aria-labelledby="schedule-heading">
        <h2 id="schedule-heading">Schedule</h2>
        {runs.data ? (
          <ScheduleForm
            key={runs.data.schedule.updated_at ?? 'new'}
            schedule={runs.data.schedule}
            readOnly={!canManage}
          />
        ) : null}
      </section>

      {dialog?.kind === 'upload' ? (
        <UploadBackupDialog twoFactor={twoFactor} onClose={() => setDialog(null)} />
      ) : dialog ? (
        <ArchiveDialog
          archive={dialog.archive}
          action={dialog.kind}
          twoFactor={twoFactor}
          onClose={() => setDialog(null)}
        />
      ) : null}
    </>
  );
}
