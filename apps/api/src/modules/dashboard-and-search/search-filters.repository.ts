import type { Tx } from '../../lib/deps.js';
import { fileVisible, type Scope, visibleCategoryIds } from '../../lib/visibility.js';
import { LIVE } from './dashboard-and-search.repository.js';

// The queries of the search's filter panel: what it offers the caller (the categories they
// see, those categories' fields and workflow steps, the owners of files they see), and the
// lookups that check a filter's fields and list items. The search itself is
// search.repository.ts.

export function visibleCategories(db: Tx, scope: Scope) {
  return db.$queryRaw<Array<{ id: number; name: string; parent_id: number | null }>>`
    WITH RECURSIVE tree AS (
      SELECT c.id, c.name, c.parent_id, ARRAY[c.position, c.id] AS path
        FROM categories c WHERE c.parent_id IS NULL AND c.deleted_at IS NULL
      UNION ALL
      SELECT c.id, c.name, c.parent_id, tree.path || ARRAY[c.position, c.id]
        FROM categories c JOIN tree ON c.parent_id = tree.id WHERE c.deleted_at IS NULL
    )
    SELECT id, name, parent_id FROM tree WHERE id IN (${visibleCategoryIds(scope)}) ORDER BY path`;
}

export function fieldsOfCategories(db: Tx, categoryIds: number[]) {
  return db.metadataField.findMany({
    where: { deletedAt: null, categories: { some: { categoryId: { in: categoryIds } } } },
    orderBy: [{ position: 'asc' }, { name: 'asc' }],
    select: {
      id: true,
      name: true,
      type: true,
      valueList: {
        select: {
          items: {
            where: { archivedAt: null },
            orderBy: { position: 'asc' },
            select: { key: true, label: true },
          },
        },
      },
    },
  });
}

export function ownersOfVisibleFiles(db: Tx, scope: Scope) {
  return db.$queryRaw<Array<{ id: number; username: string; first_name: string; last_name: string }>>`
    SELECT u.id, u.username, u.first_name, u.last_name FROM users u
     WHERE u.id IN (SELECT DISTINCT f.owner_id FROM files f WHERE ${LIVE} AND ${fileVisible(scope)})
     ORDER BY u.first_name, u.last_name, u.username`;
}

export function stepsOfCategories(db: Tx, categoryIds: number[]) {
  return db.workflowStep.findMany({
    where: { workflow: { deletedAt: null, categories: { some: { id: { in: categoryIds } } } } },
    orderBy: [{ workflowId: 'asc' }, { position: 'asc' }],
    select: { id: true, name: true, workflow: { select: { id: true, name: true } } },
  });
}

/** The live fields of these ids, with their type and value list (for checking filters). */
export function fieldsByIds(db: Tx, ids: number[]) {
  return db.metadataField.findMany({
    where: { id: { in: ids }, deletedAt: null },
    select: { id: true, name: true, type: true, valueListId: true },
  });
}

/** The ids of a value list's items with these keys. */
export async function itemIdsByKeys(db: Tx, valueListId: number, keys: number[]) {
  const rows = await db.valueListItem.findMany({
    where: { valueListId, key: { in: keys } },
    select: { id: true },
  });
  return rows.map((r) => r.id);
}

/** The items of a value list whose label is this text (any letter case). */
export async function itemIdsByLabel(db: Tx, valueListId: number, label: string) {
  const rows = await db.valueListItem.findMany({
    where: { valueListId, label: { equals: label, mode: 'insensitive' } },
    select: { id: true },
  });
  return rows.map((r) => r.id);
}
