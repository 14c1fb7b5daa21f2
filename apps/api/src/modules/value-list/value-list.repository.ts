import type { Prisma, ValueListSource } from '@quire/db';
import type { Tx } from '../../lib/deps.js';
import { lockRow } from '../../lib/locks.js';
import { sameName } from '../../lib/names.js';

const summary = {
  fields: {
    where: { deletedAt: null },
    select: { id: true, name: true },
    orderBy: { name: 'asc' },
  },
  _count: { select: { items: { where: { archivedAt: null } } } },
} satisfies Prisma.ValueListInclude;
export type ValueListRow = Prisma.ValueListGetPayload<{ include: typeof summary }>;

export function listValueLists(db: Tx) {
  return db.valueList.findMany({ include: summary, orderBy: [{ name: 'asc' }, { id: 'asc' }] });
}

export function findValueList(db: Tx, id: number) {
  return db.valueList.findUnique({ where: { id }, include: summary });
}

/** The live items in order. */
export function liveItems(db: Tx, valueListId: number) {
  return db.valueListItem.findMany({
    where: { valueListId, archivedAt: null },
    orderBy: [{ position: 'asc' }, { id: 'asc' }],
  });
}

/** Every item, archived ones too (they keep their keys). */
export function allItems(db: Tx, valueListId: number) {
  return db.valueListItem.findMany({ where: { valueListId }, orderBy: [{ position: 'asc' }, { id: 'asc' }] });
}

/** A list of this name in any letter case, other than `exceptId`. */
export function findByName(db: Tx, name: string, exceptId?: number) {
  return db.valueList.findFirst({
    where: sameName(name, exceptId),
    select: { id: true },
  });
}

export function createValueList(
  tx: Tx,
  data: { name: string; description: string; source: ValueListSource; createdById: number | null },
) {
  return tx.valueList.create({ data });
}

export function updateValueList(
  tx: Tx,
  id: number,
  data: { name?: string; description?: string; source?: ValueListSource },
) {
  return tx.valueList.update({ where: { id }, data });
}

export function deleteValueList(tx: Tx, id: number) {
  return tx.valueList.delete({ where: { id } });
}

/** Locks the list's row: two edits of one list run one after the other (keys are chosen from what is free). */
export function lockValueList(tx: Tx, id: number): Promise<boolean> {
  return lockRow(tx, 'value_lists', id);
}

/** Which of these items a file value or a workflow value holds. */
export async function itemsInUse(tx: Tx, ids: number[]): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const rows = await tx.$queryRaw<Array<{ id: number }>>`
    SELECT value_item_id AS id FROM file_field_values WHERE value_item_id = ANY(${ids}::int[])
    UNION SELECT value_item_id FROM workflow_instance_values WHERE value_item_id = ANY(${ids}::int[])`;
  return new Set(rows.map((r) => r.id));
}

export function archiveItems(tx: Tx, ids: number[], at: Date) {
  return tx.valueListItem.updateMany({ where: { id: { in: ids } }, data: { archivedAt: at } });
}

export function deleteItems(tx: Tx, ids: number[]) {
  return tx.valueListItem.deleteMany({ where: { id: { in: ids } } });
}

/** Gives items their `label` and `position` (kept when absent), in one statement. */
export async function updateItems(tx: Tx, items: Array<{ id: number; label: string; position?: number }>) {
  if (!items.length) return;
  await tx.$executeRaw`
    UPDATE value_list_items i SET label = u.label, position = COALESCE(u.position, i.position)
      FROM unnest(${items.map((x) => x.id)}::int[], ${items.map((x) => x.label)}::text[],
                  ${items.map((x) => x.position ?? null)}::int[]) AS u(id, label, position)
     WHERE i.id = u.id`;
}

export function createItems(
  tx: Tx,
  valueListId: number,
  items: Array<{ key: number; label: string; position: number }>,
) {
  return tx.valueListItem.createMany({ data: items.map((i) => ({ ...i, valueListId })) });
}
