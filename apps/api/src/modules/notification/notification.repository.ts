import { Prisma } from '@quire/db';
import type { Tx } from '../../lib/deps.js';
import type { PageQuery } from '../../lib/paging.js';
import { pageWindow } from '../../lib/paging.js';
import { fileVisible } from '../../lib/visibility.js';

export interface NewNotification {
  userId: number;
  kind: string;
  title: string;
  body?: string;
  fileId?: number | null;
  link?: string | null;
  /** What made it: the same key for the same user is stored once. */
  sourceKey?: string;
}

export function insert(tx: Tx, rows: NewNotification[]) {
  return tx.notification.createMany({
    data: rows.map((r) => ({
      userId: r.userId,
      kind: r.kind,
      title: r.title.slice(0, 500),
      body: (r.body ?? '').slice(0, 2000),
      fileId: r.fileId ?? null,
      link: r.link ?? null,
      sourceKey: r.sourceKey ?? null,
    })),
    skipDuplicates: true,
  });
}

export async function pageOf(tx: Tx, userId: number, q: PageQuery) {
  const [items, total, unread] = await Promise.all([
    tx.notification.findMany({
      where: { userId },
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      ...pageWindow(q),
    }),
    tx.notification.count({ where: { userId } }),
    tx.notification.count({ where: { userId, readAt: null } }),
  ]);
  return { items, total, unread };
}

export function findMine(tx: Tx, userId: number, id: bigint) {
  return tx.notification.findFirst({ where: { id, userId } });
}

export function markRead(tx: Tx, id: bigint, at: Date) {
  return tx.notification.update({ where: { id }, data: { readAt: at } });
}

export function clearAll(tx: Tx, userId: number) {
  return tx.notification.deleteMany({ where: { userId } });
}

/** The name of the person who acted, as the bell shows it ("Alice Able", or their username). */
export async function actorName(tx: Tx, userId: number): Promise<string | null> {
  const u = await tx.user.findUnique({
    where: { id: userId },
    select: { username: true, firstName: true, lastName: true },
  });
  if (!u) return null;
  return [u.firstName, u.lastName].filter(Boolean).join(' ').trim() || u.username;
}

export function fileForEvent(tx: Tx, fileId: number) {
  return tx.file.findUnique({
    where: { id: fileId },
    select: { id: true, name: true, deletedAt: true },
  });
}

/**
 * The followers of a file who may still see it (File Control admins and the Auditor see
 * every file; everyone else through their grants), except `exceptId`.
 */
export async function followersWhoSee(tx: Tx, fileId: number, exceptId: number | null): Promise<number[]> {
  const followers = await tx.fileFollow.findMany({
    where: { fileId, userId: exceptId === null ? undefined : { not: exceptId }, user: { status: 'active' } },
    select: { userId: true, user: { select: { accessType: true } } },
  });
  const out: number[] = [];
  for (const f of followers) {
    if (['FILE_CONTROL_ADMIN', 'COMPANY_ADMIN', 'AUDITOR'].includes(f.user.accessType)) {
      out.push(f.userId);
      continue;
    }
    const seen = await tx.$queryRaw<Array<{ id: number }>>`
      SELECT f.id FROM files f WHERE f.id = ${fileId}::int
        AND ${fileVisible({ kind: 'grants', userId: f.userId })}`;
    if (seen.length) out.push(f.userId);
  }
  return out;
}

export { Prisma };
