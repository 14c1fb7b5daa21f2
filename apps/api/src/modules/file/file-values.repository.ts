import { Prisma } from '@quire/db';
import type { Tx } from '../../lib/deps.js';
import { readRows } from '../../lib/sql.js';
import type { ShownValue, ValueWrite } from './file.metadata.js';

// A file's metadata values and related tags: reading them for lists and pages, writing them
// when a file is indexed, edited or moved.

/** A stored value with what its item and user read as (file.metadata.ts's shape). */
export type StoredValue = ShownValue;

/**
 * The statement of storedValues (bench/search.ts runs it bare), with its name: named, each
 * pooled connection prepares it once (its planning took as long as its run).
 */
export function storedValuesSql(fileIds: number[], fieldIds?: number[]) {
  return {
    name: fieldIds ? 'quire_stored_values_of_fields' : 'quire_stored_values',
    sql: Prisma.sql`
    SELECT fv.file_id, fv.field_id, fv.value_text, fv.value_number, fv.value_date, fv.value_boolean,
           fv.value_item_id, fv.value_user_id, i.key AS item_key, i.label AS item_label,
           coalesce(nullif(trim(u.first_name || ' ' || u.last_name), ''), u.username) AS user_name
      FROM file_field_values fv
      LEFT JOIN value_list_items i ON i.id = fv.value_item_id
      LEFT JOIN users u ON u.id = fv.value_user_id
     WHERE fv.file_id = ANY(${fileIds}::int[])
       ${fieldIds ? Prisma.sql`AND fv.field_id = ANY(${fieldIds}::int[])` : Prisma.empty}`,
  };
}

/** The values of files `fileIds` (of `fieldIds` when given), by file. */
export async function storedValues(
  tx: Tx,
  fileIds: number[],
  fieldIds?: number[],
): Promise<Map<number, StoredValue[]>> {
  const out = new Map<number, StoredValue[]>();
  if (!fileIds.length) return out;
  const statement = storedValuesSql(fileIds, fieldIds);
  const rows = await readRows<{
    file_id: number;
    field_id: number;
    value_text: string | null;
    value_number: Prisma.Decimal | string | null;
    value_date: Date | null;
    value_boolean: boolean | null;
    value_item_id: number | null;
    value_user_id: number | null;
    item_key: number | null;
    item_label: string | null;
    user_name: string | null;
  }>(tx, statement.sql, statement.name);
  for (const r of rows) {
    const list = out.get(r.file_id) ?? [];
    list.push({
      fieldId: r.field_id,
      valueText: r.value_text,
      // As Prisma writes a Decimal (no trailing zeros), from the pool's text too.
      valueNumber: r.value_number === null ? null : new Prisma.Decimal(r.value_number).toString(),
      valueDate: r.value_date,
      valueBoolean: r.value_boolean,
      valueItemId: r.value_item_id,
      valueUserId: r.value_user_id,
      itemKey: r.item_key,
      itemLabel: r.item_label,
      userName: r.user_name,
    });
    out.set(r.file_id, list);
  }
  return out;
}

export async function writeValues(
  tx: Tx,
  fileId: number,
  writes: ValueWrite[],
  drop: number[],
  userId: number,
) {
  const clear = [...drop, ...writes.filter((w) => isEmpty(w)).map((w) => w.fieldId)];
  if (clear.length) await tx.fileFieldValue.deleteMany({ where: { fileId, fieldId: { in: clear } } });
  for (const w of writes.filter((x) => !isEmpty(x))) {
    const data = {
      valueText: w.valueText,
      valueNumber: w.valueNumber,
      valueDate: w.valueDate,
      valueBoolean: w.valueBoolean,
      valueItemId: w.valueItemId,
      valueUserId: w.valueUserId,
      updatedById: userId,
    };
    await tx.fileFieldValue.upsert({
      where: { fileId_fieldId: { fileId, fieldId: w.fieldId } },
      create: { fileId, fieldId: w.fieldId, ...data },
      update: data,
    });
  }
}

function isEmpty(w: ValueWrite) {
  return (
    w.valueText === null &&
    w.valueNumber === null &&
    w.valueDate === null &&
    w.valueBoolean === null &&
    w.valueItemId === null &&
    w.valueUserId === null
  );
}

export async function itemIds(tx: Tx, pairs: Array<{ valueListId: number; key: number }>) {
  const rows = await tx.valueListItem.findMany({
    where: { archivedAt: null, OR: pairs.map((p) => ({ valueListId: p.valueListId, key: p.key })) },
    select: { id: true, valueListId: true, key: true },
  });
  return new Map(rows.map((r) => [`${r.valueListId}:${r.key}`, r.id]));
}

export async function replaceTags(
  tx: Tx,
  fileId: number,
  categoryId: number,
  tagIds: number[],
  userId: number,
) {
  const valid = await tx.relatedTag.findMany({
    where: { id: { in: tagIds }, categoryId },
    select: { id: true },
  });
  await tx.fileTag.deleteMany({ where: { fileId } });
  if (valid.length)
    await tx.fileTag.createMany({ data: valid.map((t) => ({ fileId, tagId: t.id, createdById: userId })) });
  return valid.map((t) => t.id);
}
