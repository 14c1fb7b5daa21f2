import type { AuditAction, TWorkflowValue } from '@quire/contract';
import type { Prisma } from '@quire/db';
import { type Actor, audit } from '../../lib/audit.js';
import type { Deps, Tx } from '../../lib/deps.js';
import { enqueue } from '../../lib/jobs/queue.js';
import type { InstanceRow, RunStep } from './run.repository.js';
import * as repo from './run.repository.js';
import * as valuesRepo from './run-values.repository.js';
import { type Condition, describeFailures, evaluate } from './workflow.conditions.js';
import { conditionsFail, movedOn } from './workflow.errors.js';
import { type FieldMeta, fromColumns, toColumns } from './workflow.values.js';

// The run as a state machine in PostgreSQL. Every move is one transaction: a conditional
// update of the instance on the state it was read in (id, revision, current step, running),
// its tasks, a workflow_transitions row, the job that makes its notifications and e-mails,
// and its audit event. A second writer on the same run waits for the first to commit, then
// finds the revision changed and moves nothing.

declare module '../../lib/jobs/queue.js' {
  interface JobPayloads {
    /** Makes the in-app notifications and e-mails of one transition (`workflow_transitions.id`). */
    'workflow.notify': { transition_id: string };
  }
}

export interface MoveCtx {
  deps: Deps;
  tx: Tx;
  now: Date;
  actor: Actor;
}

export type TransitionKind = Prisma.WorkflowTransitionCreateManyInput['kind'];

const HOUR = 3_600_000;
export const dueAtFor = (step: Pick<RunStep, 'dueHours'> | null, now: Date) =>
  step?.dueHours ? new Date(now.getTime() + step.dueHours * HOUR) : null;

/** The step a run enters when it starts: the one with an active on_index trigger, else the first. */
export function entryStep(steps: RunStep[], onIndexStepId: number | null | undefined): RunStep | null {
  return steps.find((s) => s.id === onIndexStepId) ?? steps[0] ?? null;
}

/** Where a decision sends the file from `from`: a step, or null for the end. */
export function routeTarget(
  steps: RunStep[],
  from: RunStep,
  route: 'next' | 'step' | 'previous' | 'end',
  stepId: number | null,
): RunStep | null {
  const at = steps.findIndex((s) => s.id === from.id);
  switch (route) {
    case 'end':
      return null;
    case 'previous':
      return at > 0 ? (steps[at - 1] ?? null) : null;
    case 'step':
      return steps.find((s) => s.id === stepId) ?? steps[at + 1] ?? null;
    case 'next':
      return steps[at + 1] ?? null;
  }
}

/** The values conditions and forms read: the file's metadata and the run's workflow metadata. */
export interface RunValues {
  file: Map<number, TWorkflowValue>;
  run: Map<number, TWorkflowValue>;
}

export async function readValues(
  db: Tx,
  fileId: number,
  instanceId: number | null,
  fields: Map<number, FieldMeta>,
): Promise<RunValues> {
  const [fileRows, runRows] = await Promise.all([
    valuesRepo.fileValueRows(db, fileId, [...fields.keys()]),
    instanceId ? valuesRepo.runValueRows(db, instanceId) : Promise.resolve(new Map()),
  ]);
  const file = new Map<number, TWorkflowValue>();
  const run = new Map<number, TWorkflowValue>();
  for (const [id, field] of fields) {
    file.set(id, fromColumns(field, fileRows.get(id)));
    run.set(id, fromColumns(field, runRows.get(id)));
  }
  return { file, run };
}

export function toConditions(
  rows: Awaited<ReturnType<typeof valuesRepo.conditionsOf>>,
  fields: Map<number, FieldMeta>,
) {
  return rows.map((c): Condition & { stepId: number; mode: 'PRE' | 'POST' } => ({
    id: c.id,
    stepId: c.stepId,
    mode: c.mode,
    field: fields.get(c.fieldId) as FieldMeta,
    onWorkflowField: c.onWorkflowField,
    operator: c.operator,
    value: c.value,
    join: c.join,
    position: c.position,
  }));
}

/**
 * Evaluates the PRE or POST conditions of a step for a file (and its run's values, with
 * `override` for values about to be saved).
 */
export async function checkStep(
  db: Tx,
  step: { id: number },
  mode: 'PRE' | 'POST',
  fileId: number,
  instanceId: number | null,
  override: Map<number, TWorkflowValue> = new Map(),
) {
  const rows = (await valuesRepo.conditionsOf(db, [step.id])).filter((c) => c.mode === mode);
  if (rows.length === 0) return { holds: true, results: [] };
  const fields = await valuesRepo.fieldMetas(
    db,
    rows.map((c) => c.fieldId),
  );
  const values = await readValues(db, fileId, instanceId, fields);
  for (const [id, v] of override) values.run.set(id, v);
  return evaluate(toConditions(rows, fields), values);
}

/** Throws 409 naming the conditions that fail when the file may not enter `step`. */
export async function assertMayEnter(
  db: Tx,
  file: { id: number; name: string },
  step: RunStep,
  instanceId: number | null,
  override?: Map<number, TWorkflowValue>,
) {
  const result = await checkStep(db, step, 'PRE', file.id, instanceId, override);
  if (!result.holds) throw conditionsFail(file.name, step.name, describeFailures(result.results));
}

/** Opens a task for each user who acts in `step` (groups expanded now). */
export async function openStepTasks(ctx: MoveCtx, instanceId: number, step: RunStep, dueAt: Date | null) {
  const users = await repo.stepUsers(ctx.tx, step.id);
  await repo.openTasks(
    ctx.tx,
    users.map((userId) => ({ instanceId, stepId: step.id, userId, now: ctx.now, dueAt })),
  );
  return users;
}

/** Writes the transition and queues its notifications, in the move's transaction. */
export async function recordTransition(
  ctx: MoveCtx,
  t: {
    instanceId: number;
    kind: TransitionKind;
    fromStepId: number | null;
    toStepId: number | null;
    comment?: string;
    values?: Prisma.InputJsonValue | null;
  },
): Promise<bigint> {
  const id = await repo.insertTransition(ctx.tx, {
    instanceId: t.instanceId,
    kind: t.kind,
    fromStepId: t.fromStepId,
    toStepId: t.toStepId,
    actedById: ctx.actor.userId,
    comment: t.comment ?? '',
    values: t.values ?? null,
    now: ctx.now,
  });
  await enqueue(ctx.tx, 'workflow.notify', { transition_id: String(id) }, { key: `workflow.notify:${id}` });
  return id;
}

export async function saveValues(
  ctx: MoveCtx,
  instanceId: number,
  fields: Map<number, FieldMeta>,
  values: Map<number, TWorkflowValue>,
) {
  await valuesRepo.saveRunValues(
    ctx.tx,
    instanceId,
    [...values].map(([fieldId, value]) => ({
      fieldId,
      columns: toColumns(fields.get(fieldId) as FieldMeta, value),
    })),
    ctx.actor.userId,
  );
}

/** Values as a transition records them. */
export const valuesJson = (values: Map<number, TWorkflowValue>): Prisma.InputJsonValue | null =>
  values.size ? [...values].map(([field_id, value]) => ({ field_id, value })) : null;

/**
 * Starts a run of `workflow` on `file` in `step` (PRE conditions checked by the caller).
 * Answers the instance id, or null when the file already runs a workflow.
 */
export async function startRun(
  ctx: MoveCtx,
  input: {
    file: { id: number; name: string };
    workflow: { id: number; name: string };
    step: RunStep;
    fields: Map<number, FieldMeta>;
    values: Map<number, TWorkflowValue>;
    how: string;
  },
): Promise<number | null> {
  const dueAt = dueAtFor(input.step, ctx.now);
  const instanceId = await repo.insertRun(ctx.tx, {
    fileId: input.file.id,
    workflowId: input.workflow.id,
    stepId: input.step.id,
    startedById: ctx.actor.userId,
    now: ctx.now,
    dueAt,
  });
  if (instanceId === null) return null;
  await saveValues(ctx, instanceId, input.fields, input.values);
  await openStepTasks(ctx, instanceId, input.step, dueAt);
  await recordTransition(ctx, {
    instanceId,
    kind: 'started',
    fromStepId: null,
    toStepId: input.step.id,
    values: valuesJson(input.values),
  });
  await audit(ctx.tx, ctx.actor, {
    type: 'workflow',
    action: 'workflow.started',
    message: `Started workflow "${input.workflow.name}" on "${input.file.name}" at "${input.step.name}" (${input.how})`,
    targetType: 'file',
    targetId: input.file.id,
    details: { instance_id: instanceId, workflow_id: input.workflow.id, step_id: input.step.id },
  });
  return instanceId;
}

const END_WORDS = { completed: 'completed', rejected: 'ended rejected', cancelled: 'cancelled' } as const;

/**
 * Moves a run from the step it was read in to `to` (null: the end, as `end`), conditionally
 * on its revision: 409 when another move came first. Closes the step's open tasks and opens
 * the next step's.
 */
export async function moveRun(
  ctx: MoveCtx,
  run: Pick<InstanceRow, 'id' | 'revision' | 'currentStepId' | 'fileId'>,
  labels: { file: string; workflow: string; from: RunStep },
  move: {
    to: RunStep | null;
    end?: 'completed' | 'rejected' | 'cancelled';
    kind: TransitionKind;
    comment?: string;
    values?: Map<number, TWorkflowValue>;
    auditAction: AuditAction<'workflow'>;
    auditWords: string;
  },
): Promise<void> {
  const dueAt = dueAtFor(move.to, ctx.now);
  const moved = await repo.updateRunIf(
    ctx.tx,
    { id: run.id, revision: run.revision, currentStepId: run.currentStepId as number },
    move.to
      ? { currentStepId: move.to.id, stepEnteredAt: ctx.now, dueAt, overdueAt: null }
      : {
          currentStepId: null,
          status: move.end ?? 'completed',
          finishedAt: ctx.now,
          dueAt: null,
          overdueAt: null,
        },
  );
  if (!moved) throw movedOn(labels.from.name);
  await repo.cancelOpenTasks(ctx.tx, run.id, ctx.now);
  if (move.to) await openStepTasks(ctx, run.id, move.to, dueAt);
  await recordTransition(ctx, {
    instanceId: run.id,
    kind: move.kind,
    fromStepId: labels.from.id,
    toStepId: move.to?.id ?? null,
    comment: move.comment,
    values: move.values ? valuesJson(move.values) : null,
  });
  const where = move.to ? `to "${move.to.name}"` : `: the run ${END_WORDS[move.end ?? 'completed']}`;
  await audit(ctx.tx, ctx.actor, {
    type: 'workflow',
    action: move.auditAction,
    message:
      `${move.auditWords} "${labels.file}" at "${labels.from.name}" of workflow "${labels.workflow}" ${where}`.replace(
        ' :',
        ':',
      ),
    targetType: 'file',
    targetId: run.fileId,
    details: {
      instance_id: run.id,
      from_step_id: labels.from.id,
      to_step_id: move.to?.id ?? null,
      ...(move.end && !move.to ? { end: move.end } : {}),
      ...(move.comment ? { comment: move.comment } : {}),
    },
  });
}
