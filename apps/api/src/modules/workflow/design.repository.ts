import { Prisma } from '@quire/db';
import type { Tx } from '../../lib/deps.js';
import { containsText } from '../../lib/search.js';
import { type Scope, visibleCategoryIds } from '../../lib/visibility.js';
import type { FieldMeta } from './workflow.values.js';

// The queries of the workflow design: workflows, steps and their details, and the metadata
// fields, users and groups they name.
// Over 400 lines on purpose: one include tree (stepInclude) shapes every read of a step, and
// the step-detail writes return rows in that shape.

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

const person = { select: { id: true, username: true, firstName: true, lastName: true } } as const;

export const stepInclude = {
  assignees: {
    include: { user: person, group: { select: { id: true, name: true } } },
    orderBy: { id: 'asc' },
  },
  notifications: {
    include: { user: person, group: { select: { id: true, name: true } } },
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

/** Running files per workflow. */
export async function runningByWorkflow(db: Tx, workflowIds: number[]): Promise<Map<number, number>> {
  if (workflowIds.length === 0) return new Map();
  const rows = await db.workflowInstance.groupBy({
    by: ['workflowId'],
    where: { workflowId: { in: workflowIds }, status: 'running' },
    _count: { _all: true },
  });
  return new Map(rows.map((r) => [r.workflowId, r._count._all]));
}

/** Running files waiting in each step. */
export async function runningByStep(db: Tx, stepIds: number[]): Promise<Map<number, number>> {
  if (stepIds.length === 0) return new Map();
  const rows = await db.workflowInstance.groupBy({
    by: ['currentStepId'],
    where: { currentStepId: { in: stepIds }, status: 'running' },
    _count: { _all: true },
  });
  return new Map(rows.map((r) => [r.currentStepId as number, r._count._all]));
}

export function workflowByName(db: Tx, name: string, exceptId?: number) {
  return db.workflow.findFirst({
    where: {
      deletedAt: null,
      name: { equals: name, mode: 'insensitive' },
      ...(exceptId ? { id: { not: exceptId } } : {}),
    },
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

// ---- step details ---------------------------------------------------------------------------

/** The step's assignees become exactly these users and groups (the rows that stay keep their ids). */
export async function replaceAssignees(tx: Tx, stepId: number, userIds: number[], groupIds: number[]) {
  await tx.stepAssignee.deleteMany({
    where: {
      stepId,
      OR: [{ userId: { not: null, notIn: userIds } }, { groupId: { not: null, notIn: groupIds } }],
    },
  });
  await tx.stepAssignee.createMany({
    data: [
      ...userIds.map((userId) => ({ stepId, userId })),
      ...groupIds.map((groupId) => ({ stepId, groupId })),
    ],
    skipDuplicates: true,
  });
}

export function assigneesOf(db: Tx, stepId: number) {
  return db.stepAssignee.findMany({
    where: { stepId },
    include: stepInclude.assignees.include,
    orderBy: { id: 'asc' },
  });
}

export function findAssignee(db: Tx, id: number) {
  return db.stepAssignee.findFirst({ where: { id, step: { workflow: { deletedAt: null } } } });
}

export function removeAssignee(tx: Tx, id: number) {
  return tx.stepAssignee.delete({ where: { id } });
}

export function findNotification(db: Tx, id: number) {
  return db.stepNotification.findFirst({
    where: { id, step: { workflow: { deletedAt: null } } },
    include: stepInclude.notifications.include,
  });
}

export function notificationsOf(db: Tx, stepId: number) {
  return db.stepNotification.findMany({
    where: { stepId },
    include: stepInclude.notifications.include,
    orderBy: { id: 'asc' },
  });
}

export type NotificationData = Omit<Prisma.StepNotificationUncheckedCreateInput, 'id' | 'createdAt'>;

export function saveNotification(tx: Tx, id: number | undefined, data: NotificationData) {
  const include = stepInclude.notifications.include;
  return id
    ? tx.stepNotification.update({ where: { id }, data, include })
    : tx.stepNotification.create({ data, include });
}

export function removeNotification(tx: Tx, id: number) {
  return tx.stepNotification.delete({ where: { id } });
}

export function findCondition(db: Tx, id: number) {
  return db.stepCondition.findFirst({
    where: { id, step: { workflow: { deletedAt: null } } },
    include: stepInclude.conditions.include,
  });
}

export function conditionsOf(db: Tx, stepId: number, mode?: 'PRE' | 'POST') {
  return db.stepCondition.findMany({
    where: { stepId, ...(mode ? { mode } : {}) },
    include: stepInclude.conditions.include,
    orderBy: [{ mode: 'asc' }, { position: 'asc' }, { id: 'asc' }],
  });
}

export type ConditionData = Omit<Prisma.StepConditionUncheckedCreateInput, 'id' | 'createdAt'>;

export function saveCondition(tx: Tx, id: number | undefined, data: ConditionData) {
  const include = stepInclude.conditions.include;
  return id
    ? tx.stepCondition.update({ where: { id }, data, include })
    : tx.stepCondition.create({ data, include });
}

export function removeCondition(tx: Tx, id: number) {
  return tx.stepCondition.delete({ where: { id } });
}

export function findTrigger(db: Tx, id: number) {
  return db.stepTrigger.findFirst({
    where: { id, step: { workflow: { deletedAt: null } } },
    include: stepInclude.triggers.include,
  });
}

export function triggersOf(db: Tx, stepId: number) {
  return db.stepTrigger.findMany({
    where: { stepId },
    include: stepInclude.triggers.include,
    orderBy: { id: 'asc' },
  });
}

export type TriggerData = Omit<Prisma.StepTriggerUncheckedCreateInput, 'id' | 'createdAt'>;

export function saveTrigger(tx: Tx, id: number | undefined, data: TriggerData) {
  const include = stepInclude.triggers.include;
  return id
    ? tx.stepTrigger.update({ where: { id }, data, include })
    : tx.stepTrigger.create({ data, include });
}

export function removeTrigger(tx: Tx, id: number) {
  return tx.stepTrigger.delete({ where: { id } });
}

export function stepFieldsOf(db: Tx, stepId: number) {
  return db.stepField.findMany({
    where: { stepId },
    include: stepInclude.fields.include,
    orderBy: [{ position: 'asc' }, { fieldId: 'asc' }],
  });
}

export async function replaceStepFields(
  tx: Tx,
  stepId: number,
  fields: Array<{ fieldId: number; editable: boolean; required: boolean }>,
) {
  const before = await tx.stepField.findMany({ where: { stepId } });
  const defaults = new Map(before.map((f) => [f.fieldId, f.defaultValue]));
  await tx.stepField.deleteMany({ where: { stepId } });
  if (fields.length)
    await tx.stepField.createMany({
      data: fields.map((f, i) => ({
        stepId,
        position: i + 1,
        defaultValue: defaults.get(f.fieldId) ?? null,
        ...f,
      })),
    });
}

export function setStepDefault(tx: Tx, stepId: number, fieldId: number, defaultValue: string | null) {
  return tx.stepField.update({ where: { stepId_fieldId: { stepId, fieldId } }, data: { defaultValue } });
}

// ---- what the details name ------------------------------------------------------------------

/** The live metadata fields among `ids`, with their value lists. */
export async function fieldsById(db: Tx, ids: number[]): Promise<Map<number, FieldMeta>> {
  if (ids.length === 0) return new Map();
  const rows = await db.metadataField.findMany({
    where: { id: { in: ids }, deletedAt: null },
    select: fieldSelect,
  });
  return new Map(rows.map((r) => [r.id, toFieldMeta(r)]));
}

/** Which of these ids are active users. */
export async function activeUserIds(db: Tx, ids: number[]): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const rows = await db.user.findMany({ where: { id: { in: ids }, status: 'active' }, select: { id: true } });
  return new Set(rows.map((r) => r.id));
}

export async function groupIds(db: Tx, ids: number[]): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const rows = await db.group.findMany({ where: { id: { in: ids } }, select: { id: true } });
  return new Set(rows.map((r) => r.id));
}

export async function userNames(db: Tx, ids: number[]): Promise<Map<number, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db.user.findMany({ where: { id: { in: ids } }, ...person });
  return new Map(rows.map((u) => [u.id, `${u.firstName} ${u.lastName}`.trim() || u.username]));
}

export async function groupNames(db: Tx, ids: number[]): Promise<Map<number, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db.group.findMany({ where: { id: { in: ids } }, select: { id: true, name: true } });
  return new Map(rows.map((g) => [g.id, g.name]));
}

export function recipients(db: Tx) {
  return Promise.all([
    db.user.findMany({
      where: { status: 'active', accessType: { not: 'VENDOR_ADMIN' } },
      select: { id: true, username: true, firstName: true, lastName: true, email: true },
      orderBy: [{ firstName: 'asc' }, { lastName: 'asc' }, { id: 'asc' }],
    }),
    db.group.findMany({
      select: { id: true, name: true, _count: { select: { members: true } } },
      orderBy: [{ name: 'asc' }, { id: 'asc' }],
    }),
  ]);
}

/** Every live metadata field, by name. */
export async function liveFields(db: Tx): Promise<FieldMeta[]> {
  const rows = await db.metadataField.findMany({
    where: { deletedAt: null },
    select: fieldSelect,
    orderBy: [{ name: 'asc' }, { id: 'asc' }],
  });
  return rows.map(toFieldMeta);
}
