import { z } from 'zod';
import { audit } from '../../lib/audit.js';
import type { Deps } from '../../lib/deps.js';
import { defineJob, describeError } from '../../lib/jobs/definition.js';
import { assertNoHoldInForce } from '../retention/legal-hold.guard.js';
import {
  ARCHIVE_MIME,
  archiveName,
  manifestSummary,
  restoreArchive,
  sweepArchives,
  writeArchive,
} from './backup.engine.js';
import * as repo from './backup.repository.js';
import { pruneScheduled } from './backup-schedule.service.js';

// The backup jobs (decision 013). A backup or a restore runs once at a time (job keys), for
// hours if it must, and mirrors its state on its `backups` row. A job can run twice (its
// worker died): each looks at the row first.

declare module '../../lib/jobs/queue.js' {
  interface JobPayloads {
    'backup.run': { backup_id?: number; due_at?: string };
    'backup.restore': { backup_id: number; user_id: number | null };
  }
}

const HOURS = 3_600_000;

async function runBackup(deps: Deps, backupId: number, signal: AbortSignal) {
  const claimed = await repo.moveStatus(deps.db, backupId, ['queued', 'running'], {
    status: 'running',
    startedAt: deps.now(),
    progress: 1,
    error: null,
  });
  if (claimed.count === 0) return; // done already, or deleted
  try {
    const { archive, manifest } = await writeArchive(deps, backupId, signal);
    const now = deps.now();
    await deps.db.$transaction(async (tx) => {
      await repo.upsertBlob(tx, archive.id, archive.size, ARCHIVE_MIME);
      const row = await repo.updateBackup(tx, backupId, {
        status: 'succeeded',
        progress: 100,
        blobId: archive.id,
        fileName: archiveName(now),
        size: archive.size,
        migration: manifest.migration,
        manifest: manifestSummary(manifest),
        verifiedAt: now,
        finishedAt: now,
      });
      await audit(
        tx,
        { userId: row.requestedById },
        {
          type: 'backup',
          action: 'backup.created',
          message: `Backup ${row.fileName} made (${manifest.tables.length} tables, ${manifest.blobs.count} blobs)`,
          targetType: 'backup',
          targetId: backupId,
          details: { kind: row.kind, size: archive.size, migration: manifest.migration, sha256: archive.id },
        },
      );
      if (row.kind === 'scheduled') await pruneScheduled(tx);
    });
    // With BACKUP_DIR: the archives of pruned or deleted backups leave its folder.
    await sweepArchives(deps).catch((err: unknown) => deps.log.warn({ err }, 'backup folder sweep failed'));
  } catch (err) {
    await repo.updateBackup(deps.db, backupId, {
      status: 'failed',
      error: describeError(err),
      finishedAt: deps.now(),
    });
    deps.log.error({ err, backupId }, 'backup failed');
  }
}

/** `backup.run`: makes the archive of a requested backup, or of a scheduled one (its row made here). */
export const backupRunJob = defineJob({
  kind: 'backup.run',
  payload: z.object({ backup_id: z.number().int().optional(), due_at: z.string().optional() }),
  timeoutMs: 12 * HOURS,
  async run(job, deps) {
    let id = job.payload.backup_id;
    if (id === undefined) {
      const busy = await repo.findBusy(deps.db);
      if (busy) return; // a restore or another backup runs: this due time is skipped
      id = (await repo.createBackup(deps.db, { kind: 'scheduled', requestedById: null })).id;
    }
    await runBackup(deps, id, job.signal);
  },
});

/** `backup.restore`: verifies, then restores an archive. */
export const backupRestoreJob = defineJob({
  kind: 'backup.restore',
  payload: z.object({ backup_id: z.number().int(), user_id: z.number().int().nullable() }),
  timeoutMs: 12 * HOURS,
  async run(job, deps) {
    const row = await repo.findBackup(deps.db, job.payload.backup_id);
    if (row?.status !== 'restoring' || !row.blobId) return;
    try {
      // A hold set since the restore was asked for refuses it too (decision 018).
      await assertNoHoldInForce(deps.db);
      await restoreArchive(deps, row.id, row.blobId, { userId: job.payload.user_id }, job.signal);
    } catch (err) {
      const message = describeError(err);
      await deps.db.$transaction(async (tx) => {
        await repo.updateBackup(tx, row.id, {
          status: row.restoredAt ? 'restored' : 'succeeded',
          progress: 100,
          error: `Restore failed, nothing was changed: ${message}`,
        });
        await audit(
          tx,
          { userId: job.payload.user_id },
          {
            type: 'backup',
            action: 'backup.restore_failed',
            message: `Restoring ${row.fileName} failed, nothing was changed: ${message}`,
            targetType: 'backup',
            targetId: row.id,
          },
        );
      });
      deps.log.error({ err, backupId: row.id }, 'restore failed');
    }
  },
});
