import type { BackupKind, BackupStatus, Prisma } from '@quire/db';
import type { Tx } from '../../lib/deps.js';

export const SCHEDULE_ID = 1;
const withRequester = { requestedBy: { select: { username: true } } } as const;

export function findBackup(db: Tx, id: number) {
  return db.backup.findUnique({ where: { id }, include: withRequester });
}
export type BackupRow = NonNullable<Awaited<ReturnType<typeof findBackup>>>;

export async function listBackups(db: Tx, q: { skip: number; take: number }) {
  const [items, total] = await Promise.all([
    db.backup.findMany({
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      skip: q.skip,
      take: q.take,
      include: withRequester,
    }),
    db.backup.count(),
  ]);
  return { items, total };
}

/** Archives that can be downloaded or restored. */
export function listArchives(db: Tx) {
  return db.backup.findMany({
    where: { blobId: { not: null }, status: { in: ['succeeded', 'restoring', 'restored'] } },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    include: withRequester,
  });
}

/** A backup or restore queued or running, if any. */
export function findBusy(db: Tx) {
  return db.backup.findFirst({ where: { status: { in: ['queued', 'running', 'restoring'] } } });
}

export function createBackup(
  tx: Tx,
  data: {
    kind: BackupKind;
    status?: BackupStatus;
    requestedById: number | null;
  } & Partial<Prisma.BackupUncheckedCreateInput>,
) {
  return tx.backup.create({ data, include: withRequester });
}

export function updateBackup(db: Tx, id: number, data: Prisma.BackupUncheckedUpdateInput) {
  return db.backup.update({ where: { id }, data, include: withRequester });
}

/** Sets a status only if the row is still in one of `from` (a job that ran twice changes nothing). */
export function moveStatus(
  db: Tx,
  id: number,
  from: BackupStatus[],
  data: Prisma.BackupUncheckedUpdateInput,
) {
  return db.backup.updateMany({ where: { id, status: { in: from } }, data });
}

export function deleteBackup(tx: Tx, id: number) {
  return tx.backup.delete({ where: { id } });
}

export function upsertBlob(tx: Tx, id: string, size: number, mimeType: string) {
  return tx.blob.upsert({ where: { id }, create: { id, size, mimeType }, update: {} });
}

export function findSchedule(db: Tx) {
  return db.backupSchedule.findUnique({ where: { id: SCHEDULE_ID } });
}

export function saveSchedule(
  tx: Tx,
  data: { enabled: boolean; cron: string; keepLast: number; updatedById: number | null },
) {
  return tx.backupSchedule.upsert({
    where: { id: SCHEDULE_ID },
    create: { id: SCHEDULE_ID, ...data },
    update: data,
  });
}

/** Scheduled backups past the newest `keep`, to prune. */
export function scheduledBeyond(db: Tx, keep: number) {
  return db.backup.findMany({
    where: { kind: 'scheduled', status: { in: ['succeeded', 'restored', 'failed'] } },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    skip: keep,
    select: { id: true, fileName: true },
  });
}

/** Which of `ids` a backup row still points at (its archive). */
export async function referencedArchives(db: Tx, ids: string[]): Promise<Set<string>> {
  const rows = await db.backup.findMany({ where: { blobId: { in: ids } }, select: { blobId: true } });
  return new Set(rows.map((r) => r.blobId as string));
}
