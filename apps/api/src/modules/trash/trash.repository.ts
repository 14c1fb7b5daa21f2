import { Prisma } from '@quire/db';
import type { Tx } from '../../lib/deps.js';
import type { PageQuery } from '../../lib/paging.js';
import { likePattern } from '../../lib/sql.js';

// The trash: files with deleted_at set (a File Control area: every file, no grants to filter).

/** A page of the trash, last deleted first; `deletedBy`: only the files that person deleted. */
export async function trashPage(tx: Tx, search: string | undefined, q: PageQuery, deletedBy?: number) {
  const where = Prisma.sql`f.deleted_at IS NOT NULL ${
    search ? Prisma.sql`AND lower(f.name) LIKE ${likePattern(search)}` : Prisma.empty
  } ${deletedBy === undefined ? Prisma.empty : Prisma.sql`AND f.deleted_by_id = ${deletedBy}::int`}`;
  const [rows, count] = await Promise.all([
    tx.$queryRaw<Array<{ id: number }>>`SELECT f.id FROM files f WHERE ${where}
      ORDER BY f.deleted_at DESC, f.id DESC LIMIT ${q.quantity} OFFSET ${(q.page - 1) * q.quantity}`,
    tx.$queryRaw<Array<{ n: bigint }>>`SELECT count(*) AS n FROM files f WHERE ${where}`,
  ]);
  return { ids: rows.map((r) => r.id), total: Number(count[0]?.n ?? 0) };
}

export function people(tx: Tx, ids: number[]) {
  return tx.user.findMany({
    where: { id: { in: ids } },
    select: { id: true, username: true, firstName: true, lastName: true },
  });
}

export function restore(tx: Tx, id: number, data: { categoryId: number; incrementalValue: number | null }) {
  return tx.file.update({
    where: { id },
    data: {
      deletedAt: null,
      deletedById: null,
      categoryId: data.categoryId,
      incrementalValue: data.incrementalValue,
    },
  });
}
