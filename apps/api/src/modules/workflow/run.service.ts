import type { TFileWorkflowStage, ZInitiateBody, ZManualTriggerBody } from '@quire/contract';
import type { Actor } from '../../lib/audit.js';
import { audit } from '../../lib/audit.js';
import type { Deps, Tx } from '../../lib/deps.js';
import { badField } from '../../lib/errors.js';
import type { AuthContext } from '../../lib/session.js';
import { scopeOf } from '../../lib/visibility.js';
import { toFieldMeta } from './design.repository.js';
import { isAuditor, type Out, reachableFile, userIdsIn } from './run.access.js';
import {
  assertMayEnter,
  checkStep,
  entryStep,
  type MoveCtx,
  moveRun,
  recordTransition,
  routeTarget,
  saveValues,
  startRun,
  valuesJson,
} from './run.engine.js';
import type { InstanceRow, RunStep } from './run.repository.js';
import * as repo from './run.repository.js';
import * as valuesRepo from './run-values.repository.js';
import { stage } from './run-views.service.js';
import { describeFailures } from './workflow.conditions.js';
import {
  alreadyDecided,
  alreadyRunning,
  auditorReadsOnly,
  badFields,
  categoryNotServed,
  mayNotMove,
  movedOn,
  noRunningWorkflow,
  notAssigned,
  postConditionsFail,
  stepHoldsFile,
  workflowHasNoSteps,
  workflowNotActive,
  workflowNotFound,
} from './workflow.errors.js';
import { checkValues, type FieldMeta, fromColumns, fromText } from './workflow.values.js';

// Runs (spec §4): starting workflows on files and deciding on steps; what a file's workflow
// and a person's work look like is run-views.service.ts. The moves themselves are in
// run.engine.ts.

async function activeUsers(db: Tx, ids: number[]): Promise<Set<number>> {
  const rows = await repo.userBrief(db, ids);
  return new Set(rows.filter((u) => u.status === 'active').map((u) => u.id));
}

// ---- starting -------------------------------------------------------------------------------

export async function initiate(
  deps: Deps,
  auth: AuthContext,
  actor: Actor,
  body: Out<typeof ZInitiateBody>,
): Promise<{ started: Array<{ file_id: number; instance_id: number; step: { id: number; name: string } }> }> {
  if (isAuditor(auth)) throw auditorReadsOnly();
  return deps.db.$transaction(async (tx) => {
    const workflow = await repo.liveWorkflow(tx, body.workflow_id);
    if (!workflow) throw workflowNotFound();
    if (workflow.status !== 'active') throw workflowNotActive(workflow.name);
    const steps = await repo.stepsForRun(tx, workflow.id);
    const step = entryStep(steps, (await repo.indexTriggerStep(tx, workflow.id))?.stepId);
    if (!step) throw workflowHasNoSteps(workflow.name);

    const fileIds = [...new Set(body.file_ids)];
    const files = await repo.filesHead(tx, fileIds);
    const running = await repo.runningOfFiles(tx, fileIds);
    const busy = files.find((f) => running.some((r) => r.fileId === f.id));
    if (busy) throw alreadyRunning(busy.name);
    // A workflow that serves categories runs on their files only; one that serves none, on any.
    const served = new Set(await repo.categoriesServedBy(tx, workflow.id));
    const outside = served.size
      ? files.filter((f) => f.categoryId === null || !served.has(f.categoryId))
      : [];
    if (outside.length)
      throw categoryNotServed(
        workflow.name,
        outside.map((f) => f.name),
      );

    const declared = await valuesRepo.workflowFieldsOf(tx, workflow.id);
    const fields = new Map(declared.map((f) => [f.fieldId, toFieldMeta(f.field)]));
    const given = body.values ?? [];
    const users = await activeUsers(tx, userIdsIn(fields, given));
    const { values, errors } = checkValues(fields, given, (u) => users.has(u), 'body.values');
    if (errors.length) throw badFields(errors);
    for (const f of declared) {
      const meta = fields.get(f.fieldId) as FieldMeta;
      if (!values.has(f.fieldId) || values.get(f.fieldId) === null) {
        const fallback = fromText(meta, f.defaultValue);
        if (fallback !== null) values.set(f.fieldId, fallback);
        else if (f.required) errors.push({ path: 'body.values', message: `${meta.name} is required` });
      }
    }
    if (errors.length) throw badFields(errors);

    const ctx: MoveCtx = { deps, tx, now: deps.now(), actor };
    const started = [];
    for (const file of files) {
      await assertMayEnter(tx, file, step, null, values);
      const instanceId = await startRun(ctx, {
        file,
        workflow,
        step,
        fields,
        values,
        how: 'started by hand',
      });
      if (instanceId === null) throw alreadyRunning(file.name);
      started.push({ file_id: file.id, instance_id: instanceId, step: { id: step.id, name: step.name } });
    }
    return { started };
  });
}

// ---- deciding -------------------------------------------------------------------------------

/** Another move won the conditional update: the decision is tried again on the new state. */
class ClaimLost extends Error {}

export async function manualTrigger(
  deps: Deps,
  auth: AuthContext,
  actor: Actor,
  body: Out<typeof ZManualTriggerBody>,
): Promise<TFileWorkflowStage> {
  const file = await reachableFile(deps, auth, body.file_id);
  if (isAuditor(auth)) throw auditorReadsOnly();
  if (body.action === 'move' || body.action === 'cancel') {
    const scope = scopeOf(auth);
    if (scope.kind !== 'all' || !scope.write) throw mayNotMove();
  }
  // Votes of several assignees on one step are serialized by the run's row: one that loses the
  // race is tried again on the new state (still valid while the file is in the same step).
  for (let attempt = 1; ; attempt += 1) {
    try {
      await deps.db.$transaction((tx) => decide({ deps, tx, now: deps.now(), actor }, auth, file, body));
      break;
    } catch (err) {
      if (!(err instanceof ClaimLost)) throw err;
      if (attempt >= 3) throw movedOn(err.message);
    }
  }
  return stage(deps, auth, file.id, file);
}

async function decide(
  ctx: MoveCtx,
  auth: AuthContext,
  file: { id: number; name: string },
  body: Out<typeof ZManualTriggerBody>,
): Promise<void> {
  const { tx } = ctx;
  const run = await repo.runningOfFile(tx, file.id);
  if (!run) throw noRunningWorkflow();
  const steps = await repo.stepsForRun(tx, run.workflowId);
  const current = steps.find((s) => s.id === run.currentStepId) as RunStep;
  if (run.currentStepId !== body.workflow_step_id)
    throw movedOn(steps.find((s) => s.id === body.workflow_step_id)?.name ?? 'that step');
  const workflow = await repo.liveWorkflow(tx, run.workflowId);
  const labels = { file: file.name, workflow: workflow?.name ?? '', from: current };

  if (body.action === 'move') {
    const to = steps.find((s) => s.id === body.to_step_id);
    if (!to) throw badField('body.to_step_id', 'Choose a step of this workflow');
    await moveRun(ctx, run, labels, {
      to,
      kind: 'moved',
      comment: body.comment,
      auditAction: 'workflow.moved',
      auditWords: 'Moved',
    });
    return;
  }
  if (body.action === 'cancel') {
    await moveRun(ctx, run, labels, {
      to: null,
      end: 'cancelled',
      kind: 'cancelled',
      comment: body.comment,
      auditAction: 'workflow.cancelled',
      auditWords: 'Cancelled the run of',
    });
    return;
  }

  // approve / reject: the caller's own open task in this step.
  const tasks = await repo.tasksOfVisit(tx, run.id, current.id, run.stepEnteredAt);
  const mine = tasks.filter((t) => t.userId === auth.userId);
  if (!mine.some((t) => t.status === 'open')) {
    if (mine.some((t) => t.status === 'approved' || t.status === 'rejected')) throw alreadyDecided();
    // Cancelled: another decision moved the run on after it was read above (each statement
    // sees what has committed). That is the race lost (409), not a step the caller was never
    // assigned to (403).
    if (mine.some((t) => t.status === 'cancelled')) {
      const now = await repo.runningOfFile(tx, file.id);
      if (now?.id !== run.id || now.revision !== run.revision) throw movedOn(current.name);
    }
    throw notAssigned();
  }

  const formRows = await valuesRepo.stepFieldsOf(tx, current.id);
  const form = new Map(formRows.map((f) => [f.fieldId, toFieldMeta(f.field)]));
  const editable = new Map([...form].filter(([id]) => formRows.find((f) => f.fieldId === id)?.editable));
  const given = body.values ?? [];
  const users = await activeUsers(tx, userIdsIn(editable, given));
  const { values, errors } = checkValues(editable, given, (u) => users.has(u), 'body.values');
  if (errors.length) throw badFields(errors);
  if (body.action === 'approve') {
    const stored = await valuesRepo.runValueRows(tx, run.id);
    for (const f of formRows) {
      const meta = form.get(f.fieldId) as FieldMeta;
      const now = values.has(f.fieldId) ? values.get(f.fieldId) : fromColumns(meta, stored.get(f.fieldId));
      if (now !== null && now !== undefined) continue;
      const fallback = fromText(meta, f.defaultValue);
      if (fallback !== null) values.set(f.fieldId, fallback);
      else if (f.required) errors.push({ path: 'body.values', message: `${meta.name} is required` });
    }
  }
  if (errors.length) throw badFields(errors);

  // Claim the run: the conditional update that serializes every decision on it.
  if (!(await repo.updateRunIf(tx, { id: run.id, revision: run.revision, currentStepId: current.id }, {})))
    throw new ClaimLost(current.name);
  const claimed: InstanceRow = { ...run, revision: run.revision + 1 };
  const status = body.action === 'approve' ? 'approved' : 'rejected';
  if (
    !(await repo.decideTask(tx, {
      instanceId: run.id,
      stepId: current.id,
      userId: auth.userId,
      status,
      now: ctx.now,
    }))
  )
    throw alreadyDecided();
  await saveValues(ctx, run.id, form, values);

  if (body.action === 'reject') {
    const to = routeTarget(steps, current, current.onReject, current.onRejectStepId);
    await moveRun(ctx, claimed, labels, {
      to,
      end: 'rejected',
      kind: 'rejected',
      comment: body.comment,
      values,
      auditAction: 'workflow.rejected',
      auditWords: 'Rejected',
    });
    return;
  }

  const after = await repo.tasksOfVisit(tx, run.id, current.id, run.stepEnteredAt);
  const approved = after.filter((t) => t.status === 'approved').length;
  const open = after.filter((t) => t.status === 'open').length;
  const complete =
    current.completion === 'any' ||
    (current.completion === 'all' && open === 0) ||
    (current.completion === 'quorum' && approved >= Math.min(current.quorum ?? 1, approved + open));
  if (!complete) {
    await recordTransition(ctx, {
      instanceId: run.id,
      kind: 'approved',
      fromStepId: current.id,
      toStepId: current.id,
      comment: body.comment,
      values: valuesJson(values),
    });
    await audit(tx, ctx.actor, {
      type: 'workflow',
      action: 'workflow.approved',
      message: `Approved "${file.name}" at "${current.name}" of workflow "${labels.workflow}" (${open} more to decide)`,
      targetType: 'file',
      targetId: file.id,
      details: { instance_id: run.id, step_id: current.id, waiting: open },
    });
    return;
  }
  const post = await checkStep(tx, current, 'POST', file.id, run.id);
  if (!post.holds) throw postConditionsFail(current.name, describeFailures(post.results));
  const to = routeTarget(steps, current, current.onApprove, current.onApproveStepId);
  if (to) await assertMayEnter(tx, file, to, run.id);
  await moveRun(ctx, claimed, labels, {
    to,
    end: 'completed',
    kind: 'approved',
    comment: body.comment,
    values,
    auditAction: 'workflow.approved',
    auditWords: 'Approved',
  });
}

/**
 * While a file runs a workflow, its current step decides who may change it: the people with
 * an open task in that step, and File Control writers (the Auditor never). The files area's
 * one change path calls it (`assertMayChange` in file.service.ts) after locking the rows, so
 * every change of a file obeys it; a file not in a run is left to its grants. Throws 403
 * `workflow.step_holds_file` naming the first file refused.
 */
export async function assertStepAllowsEdit(db: Tx, auth: AuthContext, fileIds: number[]): Promise<void> {
  const scope = scopeOf(auth);
  if (scope.kind === 'all' && scope.write) return;
  const runs = await repo.runningOfFiles(db, fileIds);
  const order = new Map(fileIds.map((id, i) => [id, i]));
  runs.sort((a, b) => (order.get(a.fileId) ?? 0) - (order.get(b.fileId) ?? 0));
  for (const run of runs) {
    if (!run.currentStepId) continue;
    if (!isAuditor(auth) && (await repo.hasOpenTask(db, run.id, run.currentStepId, auth.userId))) continue;
    throw stepHoldsFile(await repo.fileName(db, run.fileId), await repo.stepName(db, run.currentStepId));
  }
}
