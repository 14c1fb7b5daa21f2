import type { Prisma } from '@quire/db';
import type { Tx } from '../../lib/deps.js';
import { lockFor } from '../../lib/locks.js';

export function findCurrent(db: Tx) {
  return db.licence.findFirst({
    where: { replacedAt: null },
    orderBy: [{ installedAt: 'desc' }, { id: 'desc' }],
    include: { installedBy: { select: { username: true } } },
  });
}

export function findBySha(db: Tx, sha: string) {
  return db.licence.findUnique({ where: { documentSha256: sha }, select: { id: true } });
}

export function replaceCurrent(tx: Tx, at: Date) {
  return tx.licence.updateMany({ where: { replacedAt: null }, data: { replacedAt: at } });
}

export function create(tx: Tx, data: Prisma.LicenceUncheckedCreateInput) {
  return tx.licence.create({ data });
}

/** Active accounts; the vendor admin takes no seat. */
export function countSeatsUsed(db: Tx) {
  return db.user.count({ where: { status: 'active', accessType: { not: 'VENDOR_ADMIN' } } });
}

export async function lockSeats(tx: Tx) {
  // Serialises seat checks: two admins activating the last seat at once get one each, not two.
  await lockFor(tx, 'seats');
}
