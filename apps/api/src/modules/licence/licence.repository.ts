import { type Db, Prisma } from '@quire/db';
import type { Tx } from '../../lib/deps.js';
import { lockFor } from '../../lib/locks.js';
import { queryRows } from '../../lib/sql.js';

/** The installed licence row as the service reads it. */
export interface InstalledLicence {
  document: string;
  installedAt: Date;
  installedBy: { username: string } | null;
}

export function findCurrent(db: Tx): Promise<InstalledLicence | null> {
  return db.licence.findFirst({
    where: { replacedAt: null },
    orderBy: [{ installedAt: 'desc' }, { id: 'desc' }],
    include: { installedBy: { select: { username: true } } },
  });
}

/**
 * findCurrent as one prepared statement on the pool: the request pipeline reads the licence
 * on every write call (licence.gate), where Prisma's query handling cost more than the query.
 */
export async function findCurrentOnPool(db: Db): Promise<InstalledLicence | null> {
  const [row] = await queryRows<{ document: string; installedAt: Date; username: string | null }>(
    db,
    Prisma.sql`
      SELECT l.document, l.installed_at AS "installedAt", u.username
        FROM licences l LEFT JOIN users u ON u.id = l.installed_by_id
       WHERE l.replaced_at IS NULL
       ORDER BY l.installed_at DESC, l.id DESC LIMIT 1`,
    'quire_current_licence',
  );
  if (!row) return null;
  return {
    document: row.document,
    installedAt: row.installedAt,
    installedBy: row.username === null ? null : { username: row.username },
  };
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
