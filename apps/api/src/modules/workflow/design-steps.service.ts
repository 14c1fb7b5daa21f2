import type { AuditAction, TStep, ZSaveStepBody } from '@quire/contract';
import type { Prisma } from '@quire/db';
import { type Actor, audit } from '../../lib/audit.js';
import type { Deps, Tx } from '../../lib/deps.js';
import { badField } from '../../lib/errors.js';
import { toStepDto } from './design.dto.js';
import * as repo from './design.repository.js';
import { AUDIT, namesFor, type Out } from './design.service.js';
import * as detailsRepo from './step-details.repository.js';
import {
  assigneeNotFound,
  conditionNotFound,
  detailInUse,
  notificationNotFound,
  stepInUse,
  stepNotFound,
  triggerNotFound,
  workflowNotFound,
} from './workflow.errors.js';

// The design of a workflow's steps: read, save (with its route targets), delete, and the
// check that a step has no running file before a change that would strand it.

export async function getStep(deps: Deps, id: number, db: Tx = deps.db): Promise<TStep> {
  const row = await repo.findStep(db, id);
  if (!row) throw stepNotFound();
  const [running, names] = await Promise.all([repo.runningByStep(db, [id]), namesFor(db, [row])]);
  return toStepDto(row, running, names);
}

/** A step of a live workflow (the row without its details), or 404. */
export async function stepOf(db: Tx, id: number) {
  const step = await repo.findStepHead(db, id);
  if (!step) throw stepNotFound();
  return step;
}

export async function checkRouteTarget(
  steps: Array<{ id: number }>,
  stepId: number | null | undefined,
  path: string,
): Promise<void> {
  if (stepId && !steps.some((s) => s.id === stepId))
    throw badField(path, 'Choose a step of the same workflow');
}

/** The notification rule every new step starts with: its assignees hear of a file entering it. */
const ASSIGNEES_TOLD = (stepId: number): detailsRepo.NotificationData => ({
  stepId,
  event: 'entered',
  recipient: 'assignees',
  userId: null,
  groupId: null,
  inApp: true,
  email: true,
  subject: '',
  body: '',
});

export async function saveStep(deps: Deps, actor: Actor, body: Out<typeof ZSaveStepBody>): Promise<TStep> {
  const id = await deps.db.$transaction(async (tx) => {
    const workflow = await repo.findWorkflowHead(tx, body.workflow_id);
    if (!workflow) throw workflowNotFound();
    const before = body.id ? await stepOf(tx, body.id) : null;
    if (before && before.workflowId !== workflow.id)
      throw badField('body.workflow_id', 'This step belongs to another workflow');
    const steps = await repo.stepsOf(tx, workflow.id);
    await checkRouteTarget(steps, body.on_approve_step_id, 'body.on_approve_step_id');
    await checkRouteTarget(steps, body.on_reject_step_id, 'body.on_reject_step_id');

    const completion = body.completion ?? before?.completion ?? 'any';
    const data = {
      name: body.name,
      description: body.description ?? before?.description ?? '',
      dueHours: body.due_hours === undefined ? (before?.dueHours ?? null) : body.due_hours,
      completion,
      quorum: completion === 'quorum' ? (body.quorum ?? before?.quorum ?? 1) : null,
      onApprove: body.on_approve ?? before?.onApprove ?? 'next',
      onApproveStepId: null as number | null,
      onReject: body.on_reject ?? before?.onReject ?? 'previous',
      onRejectStepId: null as number | null,
    };
    data.onApproveStepId =
      data.onApprove === 'step' ? (body.on_approve_step_id ?? before?.onApproveStepId ?? null) : null;
    data.onRejectStepId =
      data.onReject === 'step' ? (body.on_reject_step_id ?? before?.onRejectStepId ?? null) : null;
    if (data.onApprove === 'step' && !data.onApproveStepId)
      throw badField('body.on_approve_step_id', 'Choose the step to go to');
    if (data.onReject === 'step' && !data.onRejectStepId)
      throw badField('body.on_reject_step_id', 'Choose the step to go to');

    const order = steps.map((s) => s.id).filter((s) => s !== before?.id);
    const at = Math.min(
      Math.max((body.position ?? (before ? before.position : order.length + 1)) - 1, 0),
      order.length,
    );
    const step = before
      ? await repo.updateStep(tx, before.id, data)
      : await repo.createStep(tx, { ...data, workflowId: workflow.id, position: at + 1 });
    order.splice(at, 0, step.id);
    await repo.renumberSteps(tx, order);
    // A new step tells its assignees, in the app and by e-mail, when a file enters it; the
    // admin may change or delete that rule like any other.
    const told = before ? null : await detailsRepo.saveNotification(tx, undefined, ASSIGNEES_TOLD(step.id));
    await audit(tx, actor, {
      ...AUDIT,
      action: before ? 'workflow.step_updated' : 'workflow.step_created',
      message: `${before ? 'Updated' : 'Added'} step "${step.name}" of workflow "${workflow.name}"`,
      targetId: workflow.id,
      details: {
        step_id: step.id,
        position: at + 1,
        ...data,
        ...(before
          ? { before: { name: before.name, position: before.position, completion: before.completion } }
          : {}),
        ...(told
          ? { notification_id: told.id, notification: 'entered, to assignees, in the app and by e-mail' }
          : {}),
      },
    });
    return step.id;
  });
  return getStep(deps, id);
}

export async function deleteStep(deps: Deps, actor: Actor, id: number): Promise<void> {
  await deps.db.$transaction(async (tx) => {
    const step = await stepOf(tx, id);
    const running = (await repo.runningByWorkflow(tx, [step.workflowId])).get(step.workflowId) ?? 0;
    if (running > 0) throw stepInUse(running);
    await repo.unlinkStep(tx, id);
    await repo.removeStep(tx, id);
    const rest = await repo.stepsOf(tx, step.workflowId);
    await repo.renumberSteps(
      tx,
      rest.map((s) => s.id),
    );
    await audit(tx, actor, {
      ...AUDIT,
      action: 'workflow.step_deleted',
      message: `Deleted ${stepLabel(step)}`,
      targetId: step.workflowId,
      details: { step_id: id, name: step.name },
    });
  });
}

type StepHead = Awaited<ReturnType<typeof stepOf>>;

/** How an audit message names a step: `step "Review" of workflow "Invoices"`. */
export function stepLabel(step: StepHead): string {
  return `step "${step.name}" of workflow "${step.workflow.name}"`;
}

/** A step's details by kind: how each is found and removed, and its 404. */
const STEP_DETAILS = {
  assignee: {
    find: detailsRepo.findAssignee,
    remove: detailsRepo.removeAssignee,
    notFound: assigneeNotFound,
  },
  notification: {
    find: detailsRepo.findNotification,
    remove: detailsRepo.removeNotification,
    notFound: notificationNotFound,
  },
  condition: {
    find: detailsRepo.findCondition,
    remove: detailsRepo.removeCondition,
    notFound: conditionNotFound,
  },
  trigger: { find: detailsRepo.findTrigger, remove: detailsRepo.removeTrigger, notFound: triggerNotFound },
};
type StepDetailKind = keyof typeof STEP_DETAILS;
type DetailRow<K extends StepDetailKind> = NonNullable<Awaited<ReturnType<(typeof STEP_DETAILS)[K]['find']>>>;

/**
 * The step a detail is saved on (404 when gone) and the detail as it was: null for a new one,
 * 404 when `id` names none, 400 when it belongs to another step.
 */
export async function stepAndDetail<K extends StepDetailKind>(
  tx: Tx,
  kind: K,
  body: { workflow_step_id: number; id?: number | null },
): Promise<{ step: StepHead; before: DetailRow<K> | null }> {
  const detail = STEP_DETAILS[kind];
  const step = await stepOf(tx, body.workflow_step_id);
  const before = body.id ? ((await detail.find(tx, body.id)) as DetailRow<K> | null) : null;
  if (body.id && !before) throw detail.notFound();
  if (before && before.stepId !== step.id)
    throw badField('body.workflow_step_id', `This ${kind} belongs to another step`);
  return { step, before };
}

/**
 * Deletes one detail of a step, refused while files wait in the step, with the audit event
 * `event` words from the row and its step.
 */
export async function deleteStepDetail<K extends StepDetailKind>(
  deps: Deps,
  actor: Actor,
  kind: K,
  id: number,
  event: (
    row: DetailRow<K>,
    step: StepHead,
  ) => { action: AuditAction<'workflow'>; message: string; details: Prisma.InputJsonObject },
): Promise<void> {
  const detail = STEP_DETAILS[kind];
  await deps.db.$transaction(async (tx) => {
    const row = (await detail.find(tx, id)) as DetailRow<K> | null;
    if (!row) throw detail.notFound();
    const step = await stepOf(tx, row.stepId);
    const waiting = (await repo.runningByStep(tx, [step.id])).get(step.id) ?? 0;
    if (waiting > 0) throw detailInUse(`${kind}s`, waiting);
    await detail.remove(tx, id);
    await audit(tx, actor, { ...AUDIT, targetId: step.workflowId, ...event(row, step) });
  });
}

/** Refuses a user who is not active, or a group that does not exist, at the field that names it. */
export async function checkRecipient(
  tx: Tx,
  userId: number | null,
  groupId: number | null,
  paths: { user: string; group: string },
): Promise<void> {
  if (userId && !(await detailsRepo.activeUserIds(tx, [userId])).has(userId))
    throw badField(paths.user, 'Choose an active user');
  if (groupId && !(await detailsRepo.groupIds(tx, [groupId])).has(groupId))
    throw badField(paths.group, 'Choose a group');
}
