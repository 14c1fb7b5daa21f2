import { Prisma } from '@quire/db';
import type { Tx } from '../../lib/deps.js';
import { lockRow } from '../../lib/locks.js';
import { sameName } from '../../lib/names.js';
import { containsText } from '../../lib/search.js';
import { type Scope, visibleCategoryIds } from '../../lib/visibility.js';
import type { FieldMeta } from './workflow.values.js';

// The queries of the workflow design: workflows and their steps. One include tree
// (stepInclude) shapes every read of a step; a step's details are in step-details.repository.ts.

export const fieldSelect = {
  id: true,
  name: true,
  type: true,
  required: true,
  maxLength: true,
  minNumber: true,
  maxNumber: true,
  minDate: true,
  maxDate: true,
  pattern: true,
  valueList: {
    select: {
      items: { select: { id: true, key: true, label: true, archivedAt: true }, orderBy: { position: 'asc' } },
    },
  },
} satisfies Prisma.MetadataFieldSelect;

type FieldRow = Prisma.MetadataFieldGetPayload<{ select: typeof fieldSelect }>;

export function toFieldMeta(row: FieldRow): FieldMeta {
  return {
    id: row.id,
    name: row.name,
    type: row.type,
    required: row.required,
    maxLength: row.maxLength,
    minNumber: row.minNumber === null ? null : Number(row.minNumber),
    maxNumber: row.maxNumber === null ? null : Number(row.maxNumber),
    minDate: row.minDate,
    maxDate: row.maxDate,
    pattern: row.pattern,
    options: (row.valueList?.items ?? []).map((i) => ({
      id: i.id,
      key: i.key,
      label: i.label,
      archived: i.archivedAt !== null,
    })),
  };
}

export const personSelect = {
  select: { id: true, username: true, firstName: true, lastName: true },
} as const;

export const stepInclude = {
  assignees: {
    include: { user: personSelect, group: { select: { id: true, name: true } } },
    orderBy: { id: 'asc' },
  },
  notifications: {
    include: { user: personSelect, group: { select: { id: true, name: true } } },
    orderBy: { id: 'asc' },
  },
  conditions: {
    include: { field: { select: fieldSelect } },
    orderBy: [{ mode: 'asc' }, { position: 'asc' }, { id: 'asc' }],
  },
  triggers: { include: { field: { select: { id: true, name: true } } }, orderBy: { id: 'asc' } },
  fields: { include: { field: { select: fieldSelect } }, orderBy: [{ position: 'asc' }, { fieldId: 'asc' }] },
} satisfies Prisma.WorkflowStepInclude;

export type StepRow = Prisma.WorkflowStepGetPayload<{ include: typeof stepInclude }>;

const workflowInclude = {
  categories: { where: { deletedAt: null }, select: { id: true, name: true }, orderBy: { name: 'asc' } },
  fields: { include: { field: { select: fieldSelect } }, orderBy: [{ position: 'asc' }, { fieldId: 'asc' }] },
  steps: { include: stepInclude, orderBy: [{ position: 'asc' }, { id: 'asc' }] },
} satisfies Prisma.WorkflowInclude;

export type WorkflowRow = Prisma.WorkflowGetPayload<{ include: typeof workflowInclude }>;

const summaryInclude = {
  categories: { where: { deletedAt: null }, select: { id: true, name: true }, orderBy: { name: 'asc' } },
  _count: { select: { steps: true } },
} satisfies Prisma.WorkflowInclude;

export type WorkflowSummaryRow = Prisma.WorkflowGetPayload<{ include: typeof summaryInclude }>;

// ---- workflows ------------------------------------------------------------------------------

export function findWorkflow(db: Tx, id: number) {
  return db.workflow.findFirst({ where: { id, deletedAt: null }, include: workflowInclude });
}

/** Locks the workflow's row: two edits of one workflow's design run one after the other. */
export function lockWorkflow(tx: Tx, id: number): Promise<boolean> {
  return lockRow(tx, 'workflows', id);
}

export function findWorkflowHead(db: Tx, id: number) {
  return db.workflow.findFirst({ where: { id, deletedAt: null } });
}

/** The ids of the categories `scope` may view (lib/visibility.ts). */
export async function viewableCategoryIds(db: Tx, scope: Scope): Promise<Set<number>> {
  const rows = await db.$queryRaw<Array<{ id: number }>>(
    Prisma.sql`SELECT id FROM categories WHERE id IN (${visibleCategoryIds(scope)})`,
  );
  return new Set(rows.map((r) => r.id));
}

export function listActiveWorkflows(db: Tx) {
  return db.workflow.findMany({
    where: { deletedAt: null, status: 'active' },
    include: summaryInclude,
    orderBy: [{ name: 'asc' }, { id: 'asc' }],
  });
}

export async function pageWorkflows(
  db: Tx,
  q: { search?: string; status?: 'draft' | 'active'; skip: number; take: number },
) {
  const where: Prisma.WorkflowWhereInput = {
    deletedAt: null,
    ...(q.status ? { status: q.status } : {}),
    ...(q.search ? { name: containsText(q.search) } : {}),
  };
  const [rows, total] = await Promise.all([
    db.workflow.findMany({
      where,
      include: summaryInclude,
      orderBy: [{ name: 'asc' }, { id: 'asc' }],
      skip: q.skip,
      take: q.take,
    }),
    db.workflow.count({ where }),
  ]);
  return { rows, total };
}

/** Running files per workflow, or per step they wait in (`by`), of the ids given. */
async function runningBy(
  db: Tx,
  by: 'workflowId' | 'currentStepId',
  ids: number[],
): Promise<Map<number, number>> {
  if (ids.length === 0) return new Map();
  const rows = await db.workflowInstance.groupBy({
    by: [by],
    where: { [by]: { in: ids }, status: 'running' },
    _count: { _all: true },
  });
  return new Map(rows.map((r) => [r[by] as number, r._count._all]));
}

/** Running files per workflow. */
export const runningByWorkflow = (db: Tx, workflowIds: number[]) => runningBy(db, 'workflowId', workflowIds);

/** Running files waiting in each step. */
export const runningByStep = (db: Tx, stepIds: number[]) => runningBy(db, 'currentStepId', stepIds);

export function workflowByName(db: Tx, name: string, exceptId?: number) {
  return db.workflow.findFirst({
    where: { deletedAt: null, ...sameName(name, exceptId) },
    select: { id: true },
  });
}

export function createWorkflow(
  tx: Tx,
  data: { name: string; description: string; status: 'draft' | 'active'; createdById: number | null },
) {
  return tx.workflow.create({ data });
}

export function updateWorkflow(
  tx: Tx,
  id: number,
  data: { name?: string; description?: string; status?: 'draft' | 'active' },
) {
  return tx.workflow.update({ where: { id }, data });
}

/** The live categories among `ids`. */
export async function liveCategoryIds(db: Tx, ids: number[]): Promise<Set<number>> {
  const rows = await db.category.findMany({
    where: { id: { in: ids }, deletedAt: null },
    select: { id: true },
  });
  return new Set(rows.map((r) => r.id));
}

/** The categories this workflow serves become exactly `ids` (taken from any other workflow). */
export async function setCategories(tx: Tx, workflowId: number, ids: number[]) {
  await tx.category.updateMany({
    where: { workflowId, id: { notIn: ids } },
    data: { workflowId: null },
  });
  if (ids.length) await tx.category.updateMany({ where: { id: { in: ids } }, data: { workflowId } });
}

/** Has the workflow ever run (then it is retired, not removed)? */
export async function hasInstances(db: Tx, workflowId: number) {
  return (await db.workflowInstance.count({ where: { workflowId } })) > 0;
}

export async function retireWorkflow(tx: Tx, id: number, at: Date) {
  await tx.category.updateMany({ where: { workflowId: id }, data: { workflowId: null } });
  await tx.workflow.update({ where: { id }, data: { deletedAt: at, status: 'draft' } });
}

export function removeWorkflow(tx: Tx, id: number) {
  return tx.workflow.delete({ where: { id } });
}

export async function replaceWorkflowFields(
  tx: Tx,
  workflowId: number,
  fields: Array<{ fieldId: number; required: boolean; defaultValue: string | null }>,
) {
  await tx.workflowField.deleteMany({ where: { workflowId } });
  if (fields.length)
    await tx.workflowField.createMany({
      data: fields.map((f, i) => ({ workflowId, position: i + 1, ...f })),
    });
}

// ---- steps ----------------------------------------------------------------------------------

/** A step of a live workflow, with its details. */
export function findStep(db: Tx, id: number) {
  return db.workflowStep.findFirst({ where: { id, workflow: { deletedAt: null } }, include: stepInclude });
}

/** A step of a live workflow, without details. */
export function findStepHead(db: Tx, id: number) {
  return db.workflowStep.findFirst({
    where: { id, workflow: { deletedAt: null } },
    include: { workflow: { select: { id: true, name: true } } },
  });
}

export function stepsOf(db: Tx, workflowId: number) {
  return db.workflowStep.findMany({
    where: { workflowId },
    orderBy: [{ position: 'asc' }, { id: 'asc' }],
    select: { id: true, name: true, position: true },
  });
}

export type StepData = Omit<Prisma.WorkflowStepUncheckedCreateInput, 'id' | 'createdAt' | 'updatedAt'>;

export function createStep(tx: Tx, data: StepData) {
  return tx.workflowStep.create({ data });
}

export function updateStep(tx: Tx, id: number, data: Partial<StepData>) {
  return tx.workflowStep.update({ where: { id }, data });
}

/** Writes the steps' positions 1..n in the given order. */
export async function renumberSteps(tx: Tx, orderedIds: number[]) {
  for (const [i, id] of orderedIds.entries())
    await tx.workflowStep.update({ where: { id }, data: { position: i + 1 } });
}

/** Steps whose routes or triggers lead to `stepId` go to the next step instead. */
export async function unlinkStep(tx: Tx, stepId: number) {
  await tx.workflowStep.updateMany({
    where: { onApprove: 'step', onApproveStepId: stepId },
    data: { onApprove: 'next', onApproveStepId: null },
  });
  await tx.workflowStep.updateMany({
    where: { onReject: 'step', onRejectStepId: stepId },
    data: { onReject: 'previous', onRejectStepId: null },
  });
  await tx.stepTrigger.updateMany({ where: { targetStepId: stepId }, data: { targetStepId: null } });
}

export function removeStep(tx: Tx, id: number) {
  return tx.workflowStep.delete({ where: { id } });
}
