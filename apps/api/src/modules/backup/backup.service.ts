import type { Readable } from 'node:stream';
import type { TBackup, TBackupFile } from '@quire/contract';
import { assertCompanyAdmin } from '../../lib/access-types.js';
import { type Actor, audit } from '../../lib/audit.js';
import type { Deps, Tx } from '../../lib/deps.js';
import { enqueue } from '../../lib/jobs/queue.js';
import { lockFor } from '../../lib/locks.js';
import { pageMeta, pageWindow } from '../../lib/paging.js';
import type { AuthContext } from '../../lib/session.js';
import { confirmIdentity } from '../auth/two-factor.service.js';
import { assertNoHoldInForce } from '../retention/legal-hold.guard.js';
import { ArchiveError, verifyArchive, verifyManifestFromEnd } from './backup.archive.js';
import { ARCHIVE_MIME, archiveKey, archives, manifestSummary, sweepArchives } from './backup.engine.js';
import {
  backupBusy,
  backupFileGone,
  backupInUse,
  backupNotFound,
  backupNotReady,
  invalidArchive,
  MANAGE_BACKUPS,
  unrestorableArchive,
} from './backup.errors.js';
import * as repo from './backup.repository.js';
import { scheduleDto } from './backup-schedule.service.js';

function toDto(b: repo.BackupRow): TBackup {
  return {
    id: b.id,
    kind: b.kind,
    status: b.status,
    progress: b.progress,
    file_name: b.fileName,
    size: b.size === null ? null : Number(b.size),
    migration: b.migration,
    has_file: b.blobId !== null,
    verified_at: b.verifiedAt?.toISOString() ?? null,
    error: b.error,
    requested_by: b.requestedBy?.username ?? (b.kind === 'scheduled' ? 'schedule' : null),
    started_at: b.startedAt?.toISOString() ?? null,
    finished_at: b.finishedAt?.toISOString() ?? null,
    restored_at: b.restoredAt?.toISOString() ?? null,
    created_at: b.createdAt.toISOString(),
  };
}

export async function listBackups(deps: Deps, q: { page: number; quantity: number }) {
  const { items, total } = await repo.listBackups(deps.db, pageWindow(q));
  return { items: items.map(toDto), ...pageMeta(q, total), schedule: await scheduleDto(deps) };
}

export async function listArchives(deps: Deps): Promise<TBackupFile[]> {
  return (await repo.listArchives(deps.db)).map((b) => {
    const manifest = (b.manifest ?? {}) as { quire_version?: string };
    return {
      id: b.id,
      file_name: b.fileName ?? `backup-${b.id}.tar`,
      size: Number(b.size ?? 0),
      kind: b.kind,
      migration: b.migration,
      quire_version: manifest.quire_version ?? null,
      created_at: b.createdAt.toISOString(),
      created_by: b.requestedBy?.username ?? (b.kind === 'scheduled' ? 'schedule' : null),
      verified_at: b.verifiedAt?.toISOString() ?? null,
    };
  });
}

async function assertIdle(tx: Tx) {
  const busy = await repo.findBusy(tx);
  if (busy) throw backupBusy(busy.status === 'restoring' ? 'restore' : 'backup');
}

/** Queues a backup of the whole system; the job makes it (progress on its row). */
export async function createBackup(deps: Deps, auth: AuthContext, actor: Actor): Promise<TBackup> {
  assertCompanyAdmin(auth, MANAGE_BACKUPS);
  const row = await deps.db.$transaction(async (tx) => {
    await lockFor(tx, 'backup');
    await assertIdle(tx);
    const created = await repo.createBackup(tx, { kind: 'manual', requestedById: actor.userId });
    await enqueue(
      tx,
      'backup.run',
      { backup_id: created.id },
      { key: 'backup', maxAttempts: 2, runAt: deps.now() },
    );
    await audit(tx, actor, {
      type: 'backup',
      action: 'backup.requested',
      message: 'Backup started',
      targetType: 'backup',
      targetId: created.id,
    });
    return created;
  });
  return toDto(row);
}

export async function deleteBackup(deps: Deps, auth: AuthContext, actor: Actor, id: number): Promise<void> {
  assertCompanyAdmin(auth, MANAGE_BACKUPS);
  await deps.db.$transaction(async (tx) => {
    const b = await repo.findBackup(tx, id);
    if (!b) throw backupNotFound();
    if (['queued', 'running', 'restoring'].includes(b.status)) throw backupInUse();
    await repo.deleteBackup(tx, id);
    await audit(tx, actor, {
      type: 'backup',
      action: 'backup.deleted',
      message: `Backup ${b.fileName ?? `#${id}`} deleted`,
      targetType: 'backup',
      targetId: id,
    });
  });
}

export async function deleteBackupFile(
  deps: Deps,
  auth: AuthContext,
  actor: Actor,
  id: number,
): Promise<void> {
  assertCompanyAdmin(auth, MANAGE_BACKUPS);
  await deps.db.$transaction(async (tx) => {
    const b = await repo.findBackup(tx, id);
    if (!b) throw backupNotFound();
    if (['queued', 'running', 'restoring'].includes(b.status)) throw backupInUse();
    if (!b.blobId) throw backupFileGone();
    // The blob row stays until the blob collector finds it unreferenced.
    await repo.updateBackup(tx, id, { blobId: null, fileDeletedAt: deps.now() });
    await audit(tx, actor, {
      type: 'backup',
      action: 'backup.file_deleted',
      message: `Archive ${b.fileName ?? `#${id}`} deleted; the record stays`,
      targetType: 'backup',
      targetId: id,
    });
  });
  // With BACKUP_DIR, its folder is swept here (the blob collector sweeps the blob store).
  deps.background.run('backup.sweep', () => sweepArchives(deps));
}

async function usableArchive(deps: Deps, id: number) {
  const b = await repo.findBackup(deps.db, id);
  if (!b) throw backupNotFound();
  if (!b.blobId) throw b.fileDeletedAt ? backupFileGone() : backupNotReady();
  if (!['succeeded', 'restored'].includes(b.status)) throw backupNotReady();
  return { ...b, blobId: b.blobId };
}

/** The archive to send, after the admin proved it is them again. */
export async function archiveForDownload(
  deps: Deps,
  auth: AuthContext,
  actor: Actor,
  id: number,
  proof: { password: string; code?: string },
) {
  assertCompanyAdmin(auth, MANAGE_BACKUPS);
  const b = await usableArchive(deps, id);
  await confirmIdentity(deps, auth, actor, proof);
  await audit(deps.db, actor, {
    type: 'backup',
    action: 'backup.downloaded',
    message: `Backup ${b.fileName} downloaded`,
    targetType: 'backup',
    targetId: id,
  });
  return {
    blobId: b.blobId,
    size: Number(b.size ?? (await archives(deps).size(b.blobId))),
    fileName: b.fileName ?? `backup-${id}.tar`,
  };
}

export async function assertMayUpload(
  deps: Deps,
  auth: AuthContext,
  actor: Actor,
  proof: { password: string; code?: string },
) {
  assertCompanyAdmin(auth, MANAGE_BACKUPS);
  await confirmIdentity(deps, auth, actor, {
    password: proof.password,
    ...(proof.code ? { code: proof.code } : {}),
  });
}

const safeName = (name: string) =>
  (
    name
      .replace(/[^\w.() -]+/g, '_')
      .replace(/^\.+/, '')
      .slice(0, 200) || 'uploaded-backup'
  ).replace(/(\.tar)?$/, '.tar');

/**
 * An uploaded archive: streamed into the blob store (size-limited by the pipeline), read back
 * and checked (signed by this installation, every part against its manifest), and only then
 * listed. A bad one is refused (400) and
 * its bytes are left for the blob collector.
 */
export async function uploadArchive(
  deps: Deps,
  actor: Actor,
  file: { filename: string; stream: Readable },
): Promise<TBackup> {
  const stored = await archives(deps).put(file.stream, { maxBytes: deps.config.BACKUP_UPLOAD_MAX_BYTES });
  let manifest: Awaited<ReturnType<typeof verifyArchive>>;
  try {
    manifest = await verifyArchive(archives(deps).readChunks(stored.id), archiveKey(deps));
  } catch (err) {
    // Recorded, unreferenced: the blob collector frees it (never deleted on a request path).
    await deps.db.$transaction((tx) => repo.upsertBlob(tx, stored.id, stored.size, ARCHIVE_MIME));
    if (err instanceof ArchiveError) {
      await audit(deps.db, actor, {
        type: 'backup',
        action: 'backup.upload_refused',
        message: `An uploaded backup was refused: ${err.message}`,
        details: { file_name: file.filename, size: stored.size },
      });
      throw invalidArchive(err.message);
    }
    throw err;
  }
  const now = deps.now();
  const row = await deps.db.$transaction(async (tx) => {
    await repo.upsertBlob(tx, stored.id, stored.size, ARCHIVE_MIME);
    const created = await repo.createBackup(tx, {
      kind: 'uploaded',
      status: 'succeeded',
      requestedById: actor.userId,
      blobId: stored.id,
      fileName: safeName(file.filename),
      size: stored.size,
      migration: manifest.migration,
      manifest: manifestSummary(manifest),
      verifiedAt: now,
      startedAt: now,
      finishedAt: now,
      progress: 100,
    });
    await audit(tx, actor, {
      type: 'backup',
      action: 'backup.uploaded',
      message: `Backup ${created.fileName} uploaded and verified (made ${manifest.created_at.slice(0, 10)} by Quire ${manifest.quire_version})`,
      targetType: 'backup',
      targetId: created.id,
      details: { size: stored.size, migration: manifest.migration, sha256: stored.id },
    });
    return created;
  });
  return toDto(row);
}

/**
 * Before a restore is queued: the stored archive still carries this installation's signature
 * of its manifest, and the manifest describes it (read from the archive's end, without its
 * parts: the restore job checks every checksum before it changes anything). An archive
 * altered in the store since it was made or uploaded is refused here, 400, and audited.
 */
async function assertArchiveTrusted(
  deps: Deps,
  actor: Actor,
  archive: { id: number; blobId: string; fileName: string | null },
) {
  const read = async (start: number, end: number) => {
    const chunks: Buffer[] = [];
    if (end > start)
      for await (const chunk of archives(deps).readChunks(archive.blobId, { start, end: end - 1 }))
        chunks.push(Buffer.from(chunk)); // a copy: the chunk's buffer is reused
    return Buffer.concat(chunks);
  };
  try {
    await verifyManifestFromEnd(read, await archives(deps).size(archive.blobId), archiveKey(deps));
  } catch (err) {
    if (!(err instanceof ArchiveError)) throw err;
    await audit(deps.db, actor, {
      type: 'backup',
      action: 'backup.restore_failed',
      message: `Restore of ${archive.fileName ?? `#${archive.id}`} refused before it started, nothing was changed: ${err.message}`,
      targetType: 'backup',
      targetId: archive.id,
      details: { refused: 'before_queueing' },
    });
    throw unrestorableArchive(err.message);
  }
}

/** Queues the restore of an archive (typed confirmation and password checked by then). */
export async function restoreBackup(
  deps: Deps,
  auth: AuthContext,
  actor: Actor,
  id: number,
  proof: { password: string; code?: string },
): Promise<TBackup> {
  assertCompanyAdmin(auth, MANAGE_BACKUPS);
  const archive = await usableArchive(deps, id);
  await confirmIdentity(deps, auth, actor, proof);
  await assertArchiveTrusted(deps, actor, archive);
  const row = await deps.db.$transaction(async (tx) => {
    await lockFor(tx, 'backup');
    await assertIdle(tx);
    // A restore replaces every file: never while a legal hold is in force.
    await assertNoHoldInForce(tx);
    const updated = await repo.updateBackup(tx, id, { status: 'restoring', progress: 0, error: null });
    await enqueue(
      tx,
      'backup.restore',
      { backup_id: id, user_id: actor.userId },
      { key: 'backup', maxAttempts: 1, runAt: deps.now() },
    );
    await audit(tx, actor, {
      type: 'backup',
      action: 'backup.restore_requested',
      message: `Restore of ${updated.fileName} started`,
      targetType: 'backup',
      targetId: id,
    });
    return updated;
  });
  return toDto(row);
}
