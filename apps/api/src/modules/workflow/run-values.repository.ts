import type { Tx } from '../../lib/deps.js';
import { fieldSelect, toFieldMeta } from './design.repository.js';
import type { FieldMeta, StoredColumns, ValueColumns } from './workflow.values.js';

// The values a run carries: the fields its workflow and steps ask for, what a file already
// holds of them, and the conditions that read them.

export async function fieldMetas(db: Tx, ids: number[]): Promise<Map<number, FieldMeta>> {
  if (ids.length === 0) return new Map();
  const rows = await db.metadataField.findMany({ where: { id: { in: ids } }, select: fieldSelect });
  return new Map(rows.map((r) => [r.id, toFieldMeta(r)]));
}

export async function fileValueRows(
  db: Tx,
  fileId: number,
  fieldIds: number[],
): Promise<Map<number, StoredColumns>> {
  if (fieldIds.length === 0) return new Map();
  const rows = await db.fileFieldValue.findMany({ where: { fileId, fieldId: { in: fieldIds } } });
  return new Map(rows.map((r) => [r.fieldId, r]));
}

export async function runValueRows(db: Tx, instanceId: number): Promise<Map<number, StoredColumns>> {
  const rows = await db.workflowInstanceValue.findMany({ where: { instanceId } });
  return new Map(rows.map((r) => [r.fieldId, r]));
}

export async function saveRunValues(
  tx: Tx,
  instanceId: number,
  values: Array<{ fieldId: number; columns: ValueColumns }>,
  userId: number | null,
) {
  for (const v of values) {
    const data = { ...v.columns, updatedById: userId };
    await tx.workflowInstanceValue.upsert({
      where: { instanceId_fieldId: { instanceId, fieldId: v.fieldId } },
      create: { instanceId, fieldId: v.fieldId, ...data },
      update: data,
    });
  }
}

export function workflowFieldsOf(db: Tx, workflowId: number) {
  return db.workflowField.findMany({
    where: { workflowId },
    include: { field: { select: fieldSelect } },
    orderBy: [{ position: 'asc' }, { fieldId: 'asc' }],
  });
}

export function stepFieldsOf(db: Tx, stepId: number) {
  return db.stepField.findMany({
    where: { stepId },
    include: { field: { select: fieldSelect } },
    orderBy: [{ position: 'asc' }, { fieldId: 'asc' }],
  });
}

export function conditionsOf(db: Tx, stepIds: number[]) {
  return db.stepCondition.findMany({
    where: { stepId: { in: stepIds } },
    include: { field: { select: fieldSelect } },
    orderBy: [{ position: 'asc' }, { id: 'asc' }],
  });
}
