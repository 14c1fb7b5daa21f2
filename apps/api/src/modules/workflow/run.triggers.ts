import type { TWorkflowValue } from '@quire/contract';
import type { Actor } from '../../lib/audit.js';
import { audit } from '../../lib/audit.js';
import type { Deps } from '../../lib/deps.js';
import { AppError } from '../../lib/errors.js';
import { type FileEvent, isOneOf, WORKFLOW_EVENTS } from '../../lib/file-events.js';
import { previousDue } from '../../lib/jobs/schedules.js';
import { toFieldMeta } from './design.repository.js';
import {
  checkStep,
  type MoveCtx,
  moveRun,
  readValues,
  recordTransition,
  routeTarget,
  startRun,
} from './run.engine.js';
import type { InstanceRow } from './run.repository.js';
import * as repo from './run.repository.js';
import * as clockRepo from './run-clock.repository.js';
import * as valuesRepo from './run-values.repository.js';
import { describeFailures, holds } from './workflow.conditions.js';
import { fromText, isoDate } from './workflow.values.js';

// What starts or moves a run without a person (step triggers):
// - on_index: a file indexed (or moved) into a category served by an active workflow starts a
//   run at the trigger's step, if that step's PRE conditions hold;
// - on_field_change: a change of a watched metadata value (to the given value, when set)
//   moves a run waiting in the step;
// - on_date: a date field's value reached, or a schedule's due time passed since the run
//   entered the step, moves it;
// - overdue: a run past its step's due time is escalated once (the named user or group gets
//   a task and is told).
// File events arrive as `workflow.file_event` jobs; dates and due times are looked at by the
// `workflow.clock` schedule (fired once across servers). Every move is the engine's
// conditional update, so a trigger that fires twice moves a file once.

const system = (userId: number | null = null): Actor => ({ userId, ip: null });

/** A 409 of a move that lost a race: another move came first; nothing to do. */
const lostRace = (err: unknown) => err instanceof AppError && err.statusCode === 409;

export async function onFileEvent(deps: Deps, event: FileEvent): Promise<void> {
  if (!isOneOf(WORKFLOW_EVENTS, event.type)) return;
  if (event.type === 'deleted') return cancelOnDelete(deps, event);
  let started = false;
  if ((event.type === 'indexed' || event.type === 'moved') && event.category_id)
    started = await startOnIndex(deps, event.file_id, event.category_id, event.actor_id);
  if (!started && (event.type === 'indexed' || event.type === 'values_changed') && event.field_ids?.length)
    await moveOnFieldChange(deps, event.file_id, event.field_ids);
}

async function startOnIndex(deps: Deps, fileId: number, categoryId: number, actorId: number | null) {
  return deps.db.$transaction(async (tx) => {
    const file = await repo.fileHead(tx, fileId);
    if (file?.indexStatus !== 'indexed' || file.categoryId !== categoryId) return false;
    const workflow = await repo.workflowOfCategory(tx, categoryId);
    if (!workflow) return false;
    const trigger = await repo.indexTriggerStep(tx, workflow.id);
    if (!trigger) return false;
    if (await repo.runningOfFile(tx, fileId)) return false;
    const steps = await repo.stepsForRun(tx, workflow.id);
    const step = steps.find((s) => s.id === trigger.stepId);
    if (!step) return false;
    const declared = await valuesRepo.workflowFieldsOf(tx, workflow.id);
    const fields = new Map(declared.map((f) => [f.fieldId, toFieldMeta(f.field)]));
    const values = new Map<number, TWorkflowValue>();
    for (const f of declared) {
      const v = fromText(fields.get(f.fieldId) as never, f.defaultValue);
      if (v !== null) values.set(f.fieldId, v);
    }
    const ctx: MoveCtx = { deps, tx, now: deps.now(), actor: system(actorId) };
    const pre = await checkStep(tx, step, 'PRE', file.id, null, values);
    if (!pre.holds) {
      await audit(tx, ctx.actor, {
        type: 'workflow',
        action: 'workflow.not_started',
        message: `Workflow "${workflow.name}" did not start on "${file.name}": "${step.name}" needs ${describeFailures(pre.results)}`,
        targetType: 'file',
        targetId: file.id,
        details: { workflow_id: workflow.id, step_id: step.id },
      });
      return false;
    }
    const id = await startRun(ctx, { file, workflow, step, fields, values, how: 'by its on-index trigger' });
    return id !== null;
  });
}

async function moveOnFieldChange(deps: Deps, fileId: number, fieldIds: number[]) {
  const run = await repo.runningOfFile(deps.db, fileId);
  if (!run?.currentStepId) return;
  const triggers = (await clockRepo.activeTriggers(deps.db, 'on_field_change', [run.currentStepId])).filter(
    (t) => t.fieldId !== null && fieldIds.includes(t.fieldId),
  );
  for (const trigger of triggers) {
    if (trigger.value !== null && trigger.fieldId !== null) {
      const fields = await valuesRepo.fieldMetas(deps.db, [trigger.fieldId]);
      const field = fields.get(trigger.fieldId);
      if (!field) continue;
      const values = await readValues(deps.db, fileId, null, fields);
      const matches = holds(
        {
          id: trigger.id,
          field,
          onWorkflowField: false,
          operator: 'eq',
          value: trigger.value,
          join: 'and',
          position: 1,
        },
        values.file.get(field.id) ?? null,
      );
      if (!matches) continue;
    }
    if (await triggerMove(deps, run, trigger.targetStepId, `a change of a watched value`)) return;
  }
}

/**
 * Moves a run out of the step it was read in, as a trigger: its POST conditions and the
 * target's PRE conditions must hold (otherwise it waits). Answers whether it moved.
 */
export async function triggerMove(
  deps: Deps,
  run: Pick<InstanceRow, 'id' | 'revision' | 'currentStepId' | 'fileId' | 'workflowId'>,
  targetStepId: number | null,
  why: string,
): Promise<boolean> {
  try {
    return await deps.db.$transaction(async (tx) => {
      const file = await repo.fileHead(tx, run.fileId);
      const workflow = await repo.liveWorkflow(tx, run.workflowId);
      if (!file || !workflow) return false;
      const steps = await repo.stepsForRun(tx, run.workflowId);
      const current = steps.find((s) => s.id === run.currentStepId);
      if (!current) return false;
      const to = targetStepId
        ? (steps.find((s) => s.id === targetStepId) ?? null)
        : routeTarget(steps, current, 'next', null);
      if (!(await checkStep(tx, current, 'POST', file.id, run.id)).holds) return false;
      if (to && !(await checkStep(tx, to, 'PRE', file.id, run.id)).holds) return false;
      const ctx: MoveCtx = { deps, tx, now: deps.now(), actor: system() };
      await moveRun(
        ctx,
        run,
        { file: file.name, workflow: workflow.name, from: current },
        {
          to,
          end: 'completed',
          kind: 'triggered',
          comment: `Moved by ${why}`,
          auditAction: 'workflow.triggered',
          auditWords: `Moved (${why})`,
        },
      );
      return true;
    });
  } catch (err) {
    if (lostRace(err)) return false;
    throw err;
  }
}

async function cancelOnDelete(deps: Deps, event: FileEvent) {
  const run = await repo.runningOfFile(deps.db, event.file_id);
  if (!run?.currentStepId) return;
  try {
    await deps.db.$transaction(async (tx) => {
      const steps = await repo.stepsForRun(tx, run.workflowId);
      const current = steps.find((s) => s.id === run.currentStepId);
      const workflow = await repo.liveWorkflow(tx, run.workflowId);
      const fileName = await repo.fileName(tx, run.fileId);
      if (!current) return;
      const ctx: MoveCtx = { deps, tx, now: deps.now(), actor: system(event.actor_id) };
      await moveRun(
        ctx,
        run,
        { file: fileName, workflow: workflow?.name ?? '', from: current },
        {
          to: null,
          end: 'cancelled',
          kind: 'cancelled',
          comment: 'The file was moved to the trash',
          auditAction: 'workflow.cancelled',
          auditWords: 'Cancelled the run of',
        },
      );
    });
  } catch (err) {
    if (!lostRace(err)) throw err;
  }
}

// ---- the clock ------------------------------------------------------------------------------

/** One look at the clock: escalate overdue runs, and move runs whose date has come. */
export async function runClock(deps: Deps): Promise<{ escalated: number; moved: number }> {
  const now = deps.now();
  let escalated = 0;
  for (const run of await clockRepo.overdueRuns(deps.db, now))
    if (await escalate(deps, run, now)) escalated += 1;

  let moved = 0;
  const today = new Date(`${isoDate(now)}T00:00:00Z`);
  for (const trigger of await clockRepo.activeTriggers(deps.db, 'on_date')) {
    let runs: InstanceRow[] = [];
    if (trigger.fieldId)
      runs = await clockRepo.runsWithDateReached(deps.db, trigger.stepId, trigger.fieldId, today);
    else if (trigger.cron) {
      let due: Date;
      try {
        due = previousDue(trigger.cron, now);
      } catch {
        continue;
      }
      runs = await clockRepo.runsEnteredBefore(deps.db, trigger.stepId, due);
    }
    for (const run of runs)
      if (await triggerMove(deps, run, trigger.targetStepId, 'a date reached')) moved += 1;
  }
  return { escalated, moved };
}

async function escalate(deps: Deps, run: InstanceRow, now: Date): Promise<boolean> {
  if (!run.currentStepId) return false;
  const stepId = run.currentStepId;
  return deps.db.$transaction(async (tx) => {
    if (
      !(await repo.updateRunIf(
        tx,
        { id: run.id, revision: run.revision, currentStepId: stepId },
        { overdueAt: now },
      ))
    )
      return false;
    const ctx: MoveCtx = { deps, tx, now, actor: system() };
    const triggers = await clockRepo.activeTriggers(tx, 'overdue', [stepId]);
    const open = new Set(
      (await repo.tasksOfVisit(tx, run.id, stepId, run.stepEnteredAt))
        .filter((t) => t.status === 'open')
        .map((t) => t.userId),
    );
    const added = new Set<number>();
    for (const trigger of triggers) {
      const ids = [
        ...(trigger.escalateUserId ? [trigger.escalateUserId] : []),
        ...(trigger.escalateGroupId ? await repo.groupUsers(tx, trigger.escalateGroupId) : []),
      ];
      for (const id of ids) if (!open.has(id)) added.add(id);
    }
    const active = (await repo.userBrief(tx, [...added]))
      .filter((u) => u.status === 'active')
      .map((u) => u.id);
    await repo.openTasks(
      tx,
      active.map((userId) => ({ instanceId: run.id, stepId, userId, now, dueAt: null })),
    );
    await recordTransition(ctx, {
      instanceId: run.id,
      kind: 'escalated',
      fromStepId: stepId,
      toStepId: stepId,
      comment: active.length ? `Overdue: escalated to ${active.length} more assignee(s)` : 'Overdue',
    });
    const stepName = await repo.stepName(tx, stepId);
    await audit(tx, ctx.actor, {
      type: 'workflow',
      action: 'workflow.escalated',
      message: `The file is overdue in "${stepName}"${active.length ? `; escalated to ${active.length} user(s)` : ''}`,
      targetType: 'file',
      targetId: run.fileId,
      details: {
        instance_id: run.id,
        step_id: stepId,
        due_at: run.dueAt?.toISOString() ?? null,
        user_ids: active,
      },
    });
    return true;
  });
}
