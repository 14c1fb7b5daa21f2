import { Prisma } from '@quire/db';
import type { Tx } from '../../lib/deps.js';
import { lockRow } from '../../lib/locks.js';
import { sameName } from '../../lib/names.js';

const withList = { valueList: { select: { id: true, name: true } } } satisfies Prisma.MetadataFieldInclude;
export type FieldRow = Prisma.MetadataFieldGetPayload<{ include: typeof withList }>;

export function listFields(db: Tx) {
  return db.metadataField.findMany({
    where: { deletedAt: null },
    include: withList,
    orderBy: [{ position: 'asc' }, { name: 'asc' }, { id: 'asc' }],
  });
}

export function findFields(db: Tx, ids: number[]) {
  return db.metadataField.findMany({ where: { id: { in: ids }, deletedAt: null }, include: withList });
}

export function findField(db: Tx, id: number) {
  return db.metadataField.findFirst({ where: { id, deletedAt: null }, include: withList });
}

/**
 * Locks a field's row for an edit or deletion of it (lib/locks.ts lockRow): two edits sent at
 * once run one after the other, each auditing as "before" what the last one left. False when
 * there is no such field.
 */
export function lockField(tx: Tx, id: number): Promise<boolean> {
  return lockRow(tx, 'metadata_fields', id);
}

/** A live field of this name in any letter case, other than `exceptId`. */
export function findFieldByName(db: Tx, name: string, exceptId?: number) {
  return db.metadataField.findFirst({
    where: { ...sameName(name, exceptId), deletedAt: null },
    select: { id: true },
  });
}

export function valueListExists(db: Tx, id: number) {
  return db.valueList.findUnique({ where: { id }, select: { id: true } });
}

export async function nextPosition(db: Tx): Promise<number> {
  const last = await db.metadataField.aggregate({ _max: { position: true }, where: { deletedAt: null } });
  return (last._max.position ?? -1) + 1;
}

type FieldData = Omit<Prisma.MetadataFieldUncheckedCreateInput, 'id' | 'createdAt' | 'updatedAt'>;

export function createField(tx: Tx, data: FieldData) {
  return tx.metadataField.create({ data, include: withList });
}

export function updateField(tx: Tx, id: number, data: Partial<FieldData>) {
  return tx.metadataField.update({ where: { id }, data, include: withList });
}

export function deleteField(tx: Tx, id: number) {
  return tx.metadataField.delete({ where: { id } });
}

/** The workflows that use these fields in any way (collected, in a step, a condition, a trigger, a run). */
const workflowsUsing = (field: Prisma.Sql) => Prisma.sql`
  SELECT wf.workflow_id FROM workflow_fields wf WHERE wf.field_id = ${field}
  UNION SELECT s.workflow_id FROM step_fields sf JOIN workflow_steps s ON s.id = sf.step_id WHERE sf.field_id = ${field}
  UNION SELECT s.workflow_id FROM step_conditions sc JOIN workflow_steps s ON s.id = sc.step_id WHERE sc.field_id = ${field}
  UNION SELECT s.workflow_id FROM step_triggers st JOIN workflow_steps s ON s.id = st.step_id WHERE st.field_id = ${field}
  UNION SELECT i.workflow_id FROM workflow_instance_values iv JOIN workflow_instances i ON i.id = iv.instance_id WHERE iv.field_id = ${field}`;

/**
 * Where each field is used: categories among `visibleCategories` (a subquery of ids, from
 * lib/visibility.ts), files holding a value, workflows.
 */
export async function usageOf(
  db: Tx,
  ids: number[],
  visibleCategories: Prisma.Sql,
): Promise<Map<number, { categories: number; files: number; workflows: number }>> {
  if (ids.length === 0) return new Map();
  const rows = await db.$queryRaw<
    Array<{ id: number; categories: bigint; files: bigint; workflows: bigint }>
  >`
    SELECT f.id,
           (SELECT count(*) FROM category_fields cf
             WHERE cf.field_id = f.id AND cf.category_id IN (${visibleCategories})) AS categories,
           (SELECT count(*) FROM file_field_values v WHERE v.field_id = f.id) AS files,
           (SELECT count(*) FROM (${workflowsUsing(Prisma.sql`f.id`)}) x) AS workflows
      FROM metadata_fields f
     WHERE f.id = ANY(${ids}::int[])`;
  return new Map(
    rows.map((r) => [
      r.id,
      { categories: Number(r.categories), files: Number(r.files), workflows: Number(r.workflows) },
    ]),
  );
}

/** Everything that holds on to a field, named, for a refusal that says where (deleted categories too). */
export async function usageDetail(db: Tx, id: number) {
  const [categories, files, workflows] = await Promise.all([
    db.$queryRaw<Array<{ name: string; deleted: boolean }>>`
      SELECT c.name, c.deleted_at IS NOT NULL AS deleted
        FROM category_fields cf JOIN categories c ON c.id = cf.category_id
       WHERE cf.field_id = ${id}::int
       ORDER BY c.deleted_at IS NOT NULL, lower(c.name)`,
    db.$queryRaw<
      Array<{ n: bigint }>
    >`SELECT count(*) AS n FROM file_field_values WHERE field_id = ${id}::int`,
    db.$queryRaw<Array<{ name: string }>>`
      SELECT w.name FROM workflows w WHERE w.id IN (${workflowsUsing(Prisma.sql`${id}::int`)})
       ORDER BY lower(w.name)`,
  ]);
  return {
    categories,
    files: Number(files[0]?.n ?? 0),
    workflows: workflows.map((w) => w.name),
  };
}

export function activeUsers(db: Tx) {
  return db.user.findMany({
    where: { status: 'active', accessType: { not: 'VENDOR_ADMIN' } },
    select: { id: true, username: true, firstName: true, lastName: true },
    orderBy: [{ firstName: 'asc' }, { lastName: 'asc' }, { username: 'asc' }],
  });
}

export function activeUserExists(db: Tx, id: number) {
  return db.user.findFirst({ where: { id, status: 'active' }, select: { id: true } });
}

export function valueListItemByKey(db: Tx, valueListId: number, key: number) {
  return db.valueListItem.findFirst({ where: { valueListId, key, archivedAt: null }, select: { id: true } });
}
