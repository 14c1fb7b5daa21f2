import type { Tx } from '../../lib/deps.js';
import { lockRow } from '../../lib/locks.js';
import { categoryRightsTable, type Scope } from '../../lib/visibility.js';

// The queries of related tags: a category's tags and the categories they link.

export async function tagsOf(db: Tx, scope: Scope, categoryId: number) {
  return db.$queryRaw<
    Array<{
      id: number;
      category_id: number;
      name: string;
      color: string | null;
      linked_id: number | null;
      linked_name: string | null;
    }>
  >`
    SELECT t.id, t.category_id, t.name, t.color, l.id AS linked_id, l.name AS linked_name
      FROM related_tags t
      LEFT JOIN categories l
        ON l.id = t.linked_category_id AND l.id IN (SELECT category_id FROM (${categoryRightsTable(scope)}) r)
     WHERE t.category_id = ${categoryId}::int
     ORDER BY lower(t.name), t.id`;
}

/**
 * Locks a tag's row for an edit or deletion of it (lib/locks.ts lockRow): two edits sent at
 * once run one after the other, each auditing as "before" what the last one left.
 */
export function lockTag(tx: Tx, id: number): Promise<boolean> {
  return lockRow(tx, 'related_tags', id);
}

export function findTag(db: Tx, id: number) {
  return db.relatedTag.findUnique({
    where: { id },
    include: { category: { select: { deletedAt: true, name: true } } },
  });
}

export function tagNamesTaken(db: Tx, categoryId: number, names: string[], exceptId?: number) {
  return db.relatedTag.findMany({
    where: {
      categoryId,
      OR: names.map((name) => ({ name: { equals: name, mode: 'insensitive' as const } })),
      ...(exceptId ? { id: { not: exceptId } } : {}),
    },
    select: { name: true },
  });
}

export function createTag(
  tx: Tx,
  data: {
    categoryId: number;
    name: string;
    color: string | null;
    linkedCategoryId: number | null;
    createdById: number | null;
  },
) {
  return tx.relatedTag.create({ data });
}

export function updateTag(
  tx: Tx,
  id: number,
  data: { name?: string; color?: string | null; linkedCategoryId?: number | null },
) {
  return tx.relatedTag.update({ where: { id }, data });
}

export function deleteTag(tx: Tx, id: number) {
  return tx.relatedTag.delete({ where: { id } });
}
