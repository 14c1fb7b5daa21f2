import { Prisma } from '@quire/db';
import type { Tx } from '../../lib/deps.js';
import { utc } from '../../lib/jobs/queue.js';
import { fileVisible, type Scope, visibleCategoryIds } from '../../lib/visibility.js';

// The queries of runs: instances (the state machine), tasks, transitions, the values a run
// carries, and what they read of files.
// The values a run carries are in run-values.repository.ts, what the clock reads in
// run-clock.repository.ts, what notifications read in run-notify.repository.ts.

export const runStepSelect = {
  id: true,
  workflowId: true,
  name: true,
  position: true,
  dueHours: true,
  completion: true,
  quorum: true,
  onApprove: true,
  onApproveStepId: true,
  onReject: true,
  onRejectStepId: true,
} satisfies Prisma.WorkflowStepSelect;

export type RunStep = Prisma.WorkflowStepGetPayload<{ select: typeof runStepSelect }>;

export function stepsForRun(db: Tx, workflowId: number): Promise<RunStep[]> {
  return db.workflowStep.findMany({
    where: { workflowId },
    select: runStepSelect,
    orderBy: [{ position: 'asc' }, { id: 'asc' }],
  });
}

/** The lowest step with an active on_index trigger (for a file indexed into a category). */
export function indexTriggerStep(db: Tx, workflowId: number) {
  return db.stepTrigger.findFirst({
    where: { kind: 'on_index', active: true, step: { workflowId } },
    orderBy: [{ step: { position: 'asc' } }, { id: 'asc' }],
    select: { id: true, stepId: true },
  });
}

export function fileHead(db: Tx, id: number) {
  return db.file.findFirst({
    where: { id, deletedAt: null },
    select: { id: true, name: true, ownerId: true, categoryId: true, indexStatus: true },
  });
}

export function filesHead(db: Tx, ids: number[]) {
  return db.file.findMany({
    where: { id: { in: ids }, deletedAt: null },
    select: { id: true, name: true, ownerId: true, categoryId: true },
  });
}

/** Whether the scope may view the (live) file. */
export async function fileIsVisible(db: Tx, scope: Scope, fileId: number): Promise<boolean> {
  const rows = await db.$queryRaw<Array<{ id: number }>>`
    SELECT f.id FROM files f WHERE f.id = ${fileId}::int AND f.deleted_at IS NULL AND ${fileVisible(scope)}`;
  return rows.length > 0;
}

export function liveWorkflow(db: Tx, id: number) {
  return db.workflow.findFirst({ where: { id, deletedAt: null } });
}

/** The workflow that serves a live category, when it is active. */
export async function workflowOfCategory(db: Tx, categoryId: number) {
  const category = await db.category.findFirst({
    where: { id: categoryId, deletedAt: null },
    select: { workflow: true },
  });
  const w = category?.workflow;
  return w && w.status === 'active' && w.deletedAt === null ? w : null;
}

export function runningOfFile(db: Tx, fileId: number) {
  return db.workflowInstance.findFirst({ where: { fileId, status: 'running' } });
}

export function runningOfFiles(db: Tx, fileIds: number[]) {
  return db.workflowInstance.findMany({ where: { fileId: { in: fileIds }, status: 'running' } });
}

export function latestRunOfFile(db: Tx, fileId: number) {
  return db.workflowInstance.findFirst({
    where: { fileId },
    orderBy: [{ status: 'asc' }, { startedAt: 'desc' }, { id: 'desc' }],
  });
}

export type InstanceRow = NonNullable<Awaited<ReturnType<typeof runningOfFile>>>;

/**
 * Starts a run, unless the file already has one running (the partial unique index decides,
 * without aborting the transaction): the new id, or null.
 */
export async function insertRun(
  tx: Tx,
  data: {
    fileId: number;
    workflowId: number;
    stepId: number;
    startedById: number | null;
    now: Date;
    dueAt: Date | null;
  },
): Promise<number | null> {
  const rows = await tx.$queryRaw<Array<{ id: number }>>`
    INSERT INTO workflow_instances
      (file_id, workflow_id, current_step_id, status, revision, started_by_id, started_at, step_entered_at, due_at)
    VALUES (${data.fileId}, ${data.workflowId}, ${data.stepId}, 'running', 0, ${data.startedById},
            ${utc(data.now)}::timestamptz AT TIME ZONE 'UTC', ${utc(data.now)}::timestamptz AT TIME ZONE 'UTC',
            ${data.dueAt ? utc(data.dueAt) : null}::timestamptz AT TIME ZONE 'UTC')
    ON CONFLICT (file_id) WHERE status = 'running' DO NOTHING
    RETURNING id`;
  return rows[0]?.id ?? null;
}

/**
 * The conditional update every move makes: it changes the run only if it is still in the
 * state it was read in (`id`, `revision`, `current_step_id`, running). Answers whether it did;
 * the row stays locked by this transaction until it ends, so a second writer waits and then
 * finds the revision changed.
 */
export async function updateRunIf(
  tx: Tx,
  from: { id: number; revision: number; currentStepId: number },
  data: Prisma.WorkflowInstanceUncheckedUpdateManyInput,
): Promise<boolean> {
  const { count } = await tx.workflowInstance.updateMany({
    where: { id: from.id, revision: from.revision, currentStepId: from.currentStepId, status: 'running' },
    data: { ...data, revision: from.revision + 1 },
  });
  return count === 1;
}

/** The active users who act in a step: its users, and the members of its groups. */
export async function stepUsers(db: Tx, stepId: number): Promise<number[]> {
  const rows = await db.$queryRaw<Array<{ id: number }>>`
    SELECT u.id FROM users u
     WHERE u.status = 'active'
       AND (u.id IN (SELECT user_id FROM step_assignees WHERE step_id = ${stepId}::int AND user_id IS NOT NULL)
            OR u.id IN (SELECT gm.user_id FROM group_members gm
                          JOIN step_assignees sa ON sa.group_id = gm.group_id
                         WHERE sa.step_id = ${stepId}::int))
     ORDER BY u.id`;
  return rows.map((r) => r.id);
}

export async function groupUsers(db: Tx, groupId: number): Promise<number[]> {
  const rows = await db.groupMember.findMany({
    where: { groupId, user: { status: 'active' } },
    select: { userId: true },
  });
  return rows.map((r) => r.userId);
}

export async function openTasks(
  tx: Tx,
  rows: Array<{ instanceId: number; stepId: number; userId: number; now: Date; dueAt: Date | null }>,
) {
  if (rows.length === 0) return;
  await tx.workflowTask.createMany({
    data: rows.map((r) => ({
      instanceId: r.instanceId,
      stepId: r.stepId,
      userId: r.userId,
      status: 'open' as const,
      createdAt: r.now,
      dueAt: r.dueAt,
    })),
  });
}

export function cancelOpenTasks(tx: Tx, instanceId: number, now: Date) {
  return tx.workflowTask.updateMany({
    where: { instanceId, status: 'open' },
    data: { status: 'cancelled', doneAt: now },
  });
}

/** Records a decision on the caller's open task; answers whether there was one. */
export async function decideTask(
  tx: Tx,
  t: { instanceId: number; stepId: number; userId: number; status: 'approved' | 'rejected'; now: Date },
): Promise<boolean> {
  const { count } = await tx.workflowTask.updateMany({
    where: { instanceId: t.instanceId, stepId: t.stepId, userId: t.userId, status: 'open' },
    data: { status: t.status, doneAt: t.now },
  });
  return count > 0;
}

export function hasOpenTask(db: Tx, instanceId: number, stepId: number, userId: number) {
  return db.workflowTask.count({ where: { instanceId, stepId, userId, status: 'open' } }).then((n) => n > 0);
}

/** The tasks of the step the run is in now (this visit: tasks not older than its entry). */
export function tasksOfVisit(db: Tx, instanceId: number, stepId: number, enteredAt: Date) {
  return db.workflowTask.findMany({
    where: { instanceId, stepId, createdAt: { gte: enteredAt } },
    include: { user: { select: { id: true, username: true, firstName: true, lastName: true } } },
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
  });
}

export async function insertTransition(
  tx: Tx,
  t: {
    instanceId: number;
    kind: Prisma.WorkflowTransitionCreateManyInput['kind'];
    fromStepId: number | null;
    toStepId: number | null;
    actedById: number | null;
    comment: string;
    values: Prisma.InputJsonValue | null;
    now: Date;
  },
): Promise<bigint> {
  const row = await tx.workflowTransition.create({
    data: {
      instanceId: t.instanceId,
      kind: t.kind,
      fromStepId: t.fromStepId,
      toStepId: t.toStepId,
      actedById: t.actedById,
      comment: t.comment,
      values: t.values ?? Prisma.JsonNull,
      createdAt: t.now,
    },
    select: { id: true },
  });
  return row.id;
}

// ---- lists ----------------------------------------------------------------------------------

/** The caller's open tasks on running files, soonest due first. */
export async function assignedPage(db: Tx, userId: number, skip: number, take: number) {
  const where: Prisma.WorkflowTaskWhereInput = {
    userId,
    status: 'open',
    instance: { status: 'running', file: { deletedAt: null } },
  };
  const [rows, total] = await Promise.all([
    db.workflowTask.findMany({
      where,
      include: {
        step: { select: { id: true, name: true } },
        instance: {
          select: {
            id: true,
            currentStepId: true,
            workflow: { select: { id: true, name: true } },
            startedBy: { select: { id: true, username: true, firstName: true, lastName: true } },
            file: { select: { id: true, name: true, category: { select: { id: true, name: true } } } },
          },
        },
      },
      orderBy: [{ dueAt: { sort: 'asc', nulls: 'last' } }, { createdAt: 'asc' }, { id: 'asc' }],
      skip,
      take,
    }),
    db.workflowTask.count({ where }),
  ]);
  return { rows, total };
}

export function transitionsOfFile(db: Tx, fileId: number, take = 500) {
  return db.workflowTransition.findMany({
    where: { instance: { fileId } },
    include: {
      instance: { select: { workflow: { select: { id: true, name: true } } } },
      fromStep: { select: { id: true, name: true } },
      toStep: { select: { id: true, name: true } },
      actedBy: { select: { id: true, username: true, firstName: true, lastName: true } },
    },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    take,
  });
}

export function userBrief(db: Tx, ids: number[]) {
  return db.user.findMany({
    where: { id: { in: ids } },
    select: { id: true, username: true, firstName: true, lastName: true, email: true, status: true },
  });
}

/** The categories the scope may see, with the workflow serving each. */
export function categoriesWithWorkflows(db: Tx, scope: Scope) {
  return db.$queryRaw<
    Array<{
      id: number;
      name: string;
      parent_id: number | null;
      workflow_id: number | null;
      workflow_name: string | null;
      workflow_status: 'draft' | 'active' | null;
    }>
  >`
    SELECT c.id, c.name, c.parent_id, w.id AS workflow_id, w.name AS workflow_name, w.status::text AS workflow_status
      FROM categories c
      LEFT JOIN workflows w ON w.id = c.workflow_id AND w.deleted_at IS NULL
     WHERE c.deleted_at IS NULL AND c.id IN (${visibleCategoryIds(scope)})
     ORDER BY c.parent_id NULLS FIRST, c.position, lower(c.name), c.id`;
}

export async function stepName(db: Tx, id: number): Promise<string> {
  return (await db.workflowStep.findUnique({ where: { id }, select: { name: true } }))?.name ?? '';
}

export async function fileName(db: Tx, id: number): Promise<string> {
  return (await db.file.findUnique({ where: { id }, select: { name: true } }))?.name ?? '';
}

export function workflowRef(db: Tx, id: number) {
  return db.workflow.findUnique({ where: { id }, select: { id: true, name: true } });
}

/** Files the scope sees in `categoryIds` (every category when empty), newest first. */
export function visibleFiles(
  db: Tx,
  scope: Scope,
  categoryIds: number[],
  search: string | undefined,
  take: number,
) {
  const inCategories = categoryIds.length
    ? Prisma.sql`AND f.category_id = ANY(${categoryIds}::int[])`
    : Prisma.empty;
  const named = search
    ? Prisma.sql`AND lower(f.name) LIKE ${`%${search.toLowerCase().replace(/[\\%_]/g, '\\$&')}%`}`
    : Prisma.empty;
  return db.$queryRaw<
    Array<{ id: number; name: string; category_id: number | null; category_name: string | null }>
  >`
    SELECT f.id, f.name, c.id AS category_id, c.name AS category_name
      FROM files f LEFT JOIN categories c ON c.id = f.category_id
     WHERE f.deleted_at IS NULL AND ${fileVisible(scope)} ${inCategories} ${named}
     ORDER BY f.created_at DESC, f.id DESC
     LIMIT ${take}`;
}

export async function categoriesServedBy(db: Tx, workflowId: number): Promise<number[]> {
  const rows = await db.category.findMany({ where: { workflowId, deletedAt: null }, select: { id: true } });
  return rows.map((r) => r.id);
}
