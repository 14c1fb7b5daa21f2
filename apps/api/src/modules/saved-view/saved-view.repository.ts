import type { Prisma } from '@quire/db';
import type { Tx } from '../../lib/deps.js';
import { sameName } from '../../lib/names.js';

// The queries of saved views: always by their owner.

const orderOf = [{ position: 'asc' }, { id: 'asc' }] satisfies Prisma.SavedViewOrderByWithRelationInput[];

export function listMine(tx: Tx, userId: number) {
  return tx.savedView.findMany({ where: { userId }, orderBy: orderOf });
}

export function findMine(tx: Tx, userId: number, id: number) {
  return tx.savedView.findFirst({ where: { id, userId } });
}

export function nameTaken(tx: Tx, userId: number, name: string, exceptId?: number) {
  return tx.savedView
    .count({
      where: { userId, ...sameName(name, exceptId) },
    })
    .then((n) => n > 0);
}

/**
 * Takes the owner's row lock (their `users` row), so that two saves of one person at once
 * count and number their views one after the other.
 */
export async function lockOwner(tx: Tx, userId: number) {
  await tx.$queryRaw`SELECT id FROM users WHERE id = ${userId} FOR NO KEY UPDATE`;
}

export function countMine(tx: Tx, userId: number) {
  return tx.savedView.count({ where: { userId } });
}

export function insert(
  tx: Tx,
  data: { userId: number; name: string; query: Prisma.InputJsonValue; pinned: boolean; position: number },
) {
  return tx.savedView.create({ data });
}

export function update(
  tx: Tx,
  id: number,
  data: { name?: string; pinned?: boolean; query?: Prisma.InputJsonValue },
) {
  return tx.savedView.update({ where: { id }, data });
}

/** Gives the owner's views the positions 0, 1, 2, … in the order of `ids`. */
export async function renumber(tx: Tx, ids: number[]) {
  for (const [position, id] of ids.entries())
    await tx.savedView.updateMany({ where: { id, NOT: { position } }, data: { position } });
}

export function remove(tx: Tx, id: number) {
  return tx.savedView.delete({ where: { id } });
}
