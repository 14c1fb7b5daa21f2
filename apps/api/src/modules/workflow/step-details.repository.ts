import type { Prisma } from '@quire/db';
import type { Tx } from '../../lib/deps.js';
import { fieldSelect, personSelect, stepInclude, toFieldMeta } from './design.repository.js';
import type { FieldMeta } from './workflow.values.js';

// The queries of a step's details: assignees, notifications, conditions, triggers and fields,
// and the users, groups and metadata fields they name.

/** A step's detail by id, unless its workflow was deleted (then it is gone with it). */
const liveDetail = (id: number) => ({ id, step: { workflow: { deletedAt: null } } });

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
  return db.stepAssignee.findFirst({ where: liveDetail(id) });
}

export function removeAssignee(tx: Tx, id: number) {
  return tx.stepAssignee.delete({ where: { id } });
}

export function findNotification(db: Tx, id: number) {
  return db.stepNotification.findFirst({
    where: liveDetail(id),
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
    where: liveDetail(id),
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
    where: liveDetail(id),
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
  const rows = await db.user.findMany({ where: { id: { in: ids } }, ...personSelect });
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
