import type {
  TStep,
  TStepAssignee,
  TStepCondition,
  TStepField,
  TStepNotification,
  TStepTrigger,
  TWorkflow,
  TWorkflowSummary,
  TWorkflowValue,
  ZEditStepMetadataBody,
  ZSaveAssigneesBody,
  ZSaveConditionBody,
  ZSaveNotificationBody,
  ZSaveStepBody,
  ZSaveTriggerBody,
  ZSaveWorkflowBody,
  ZSetDefaultMetadataBody,
  ZWorkflowIndexQuery,
  ZWorkflowMetadataBody,
} from '@quire/contract';
import type { z } from 'zod';
import { type Actor, audit } from '../../lib/audit.js';
import type { Deps, Tx } from '../../lib/deps.js';
import type { FieldError } from '../../lib/errors.js';
import { CRON_NEVER_DUE, CronError, checkCron } from '../../lib/jobs/schedules.js';
import { pageMeta, pageWindow } from '../../lib/paging.js';
import type { AuthContext } from '../../lib/session.js';
import { readsEverything, scopeOf } from '../../lib/visibility.js';
import {
  escalationIds,
  type Names,
  toAssigneeDto,
  toConditionDto,
  toNotificationDto,
  toStepDto,
  toStepFieldDto,
  toSummaryDto,
  toTriggerDto,
  toWorkflowDto,
} from './design.dto.js';
import * as repo from './design.repository.js';
import { conditionValueText } from './workflow.conditions.js';
import {
  assigneeNotFound,
  badField,
  badFields,
  conditionNotFound,
  detailInUse,
  nameTaken,
  notificationNotFound,
  stepInUse,
  stepNotFound,
  triggerNotFound,
  workflowInUse,
  workflowNotFound,
} from './workflow.errors.js';
import { checkValue, checkValues, type FieldMeta, toText } from './workflow.values.js';

// The workflow design (spec §3): workflows, ordered steps, and each step's assignees,
// notifications, PRE/POST conditions, triggers and metadata. Every write is one transaction
// with its audit event. Edits apply to files that enter a step afterwards (a file in a step
// keeps the tasks and due time it got on entering); deleting what running files use is
// refused with the number of files.

type Out<S extends z.ZodType> = z.output<S>;

const AUDIT = { type: 'workflow', targetType: 'workflow' } as const;

async function namesFor(db: Tx, steps: Parameters<typeof escalationIds>[0]): Promise<Names> {
  const ids = escalationIds(steps);
  const [users, groups] = await Promise.all([repo.userNames(db, ids.users), repo.groupNames(db, ids.groups)]);
  return { users, groups };
}

// ---- workflows ------------------------------------------------------------------------------

export async function getWorkflow(deps: Deps, id: number, db: Tx = deps.db): Promise<TWorkflow> {
  const row = await repo.findWorkflow(db, id);
  if (!row) throw workflowNotFound();
  const [byWorkflow, byStep, names, choices] = await Promise.all([
    repo.runningByWorkflow(db, [id]),
    repo.runningByStep(
      db,
      row.steps.map((s) => s.id),
    ),
    namesFor(db, row.steps),
    repo.liveFields(db),
  ]);
  return toWorkflowDto(row, { byWorkflow, byStep }, names, choices);
}

/**
 * The active workflows, for anyone signed in: each names only the categories the caller may
 * view (a workflow serving others is listed, its other categories are not named).
 */
export async function listActiveWorkflows(deps: Deps, auth: AuthContext): Promise<TWorkflowSummary[]> {
  const rows = await repo.listActiveWorkflows(deps.db);
  const running = await repo.runningByWorkflow(
    deps.db,
    rows.map((r) => r.id),
  );
  const scope = scopeOf(auth);
  const viewable = readsEverything(scope) ? null : await repo.viewableCategoryIds(deps.db, scope);
  return rows.map((r) =>
    toSummaryDto(
      viewable ? { ...r, categories: r.categories.filter((c) => viewable.has(c.id)) } : r,
      running,
    ),
  );
}

export async function pageWorkflows(deps: Deps, q: Out<typeof ZWorkflowIndexQuery>) {
  const { rows, total } = await repo.pageWorkflows(deps.db, { ...q, ...pageWindow(q) });
  const running = await repo.runningByWorkflow(
    deps.db,
    rows.map((r) => r.id),
  );
  return { items: rows.map((r) => toSummaryDto(r, running)), ...pageMeta(q, total) };
}

/** A step nothing can move on from: no assignee and no trigger that moves files. */
async function stepsNobodyMoves(db: Tx, workflowId: number): Promise<string[]> {
  const row = await repo.findWorkflow(db, workflowId);
  return (row?.steps ?? [])
    .filter(
      (s) =>
        s.assignees.length === 0 &&
        !s.triggers.some((t) => t.active && (t.kind === 'on_field_change' || t.kind === 'on_date')),
    )
    .map((s) => s.name);
}

async function checkActivation(db: Tx, workflowId: number | null) {
  const steps = workflowId ? await repo.stepsOf(db, workflowId) : [];
  if (steps.length === 0)
    throw badField('body.status', 'Add at least one step before activating the workflow');
  const stuck = workflowId ? await stepsNobodyMoves(db, workflowId) : [];
  if (stuck.length)
    throw badField(
      'body.status',
      `Give ${stuck.map((n) => `"${n}"`).join(', ')} an assignee or a trigger before activating the workflow`,
    );
}

/**
 * Activating a workflow that serves categories makes it start on the files indexed (or
 * moved) into them: unless one of its steps already has an on-index trigger (on or off), the
 * first step gets one, audited as any trigger added. Without a category there is nothing to
 * start on, and the workflow starts only when someone starts it on a file.
 */
async function startOnIndexing(tx: Tx, actor: Actor, workflow: { id: number; name: string }) {
  const row = await repo.findWorkflow(tx, workflow.id);
  const first = row?.steps[0];
  if (!row || !first || row.categories.length === 0) return;
  if (row.steps.some((s) => s.triggers.some((t) => t.kind === 'on_index'))) return;
  const trigger = await repo.saveTrigger(tx, undefined, {
    stepId: first.id,
    kind: 'on_index',
    fieldId: null,
    value: null,
    cron: null,
    targetStepId: null,
    escalateUserId: null,
    escalateGroupId: null,
    active: true,
  });
  await audit(tx, actor, {
    ...AUDIT,
    action: 'workflow.trigger_created',
    message: `Added a trigger (on_index) on step "${first.name}" of workflow "${workflow.name}": activated, it starts on files indexed into ${row.categories.map((c) => `"${c.name}"`).join(', ')}`,
    targetId: workflow.id,
    details: { step_id: first.id, trigger_id: trigger.id, kind: 'on_index', by: 'activation' },
  });
}

function nameRace(name: string) {
  return (err: unknown): never => {
    if ((err as { code?: string }).code === 'P2002') throw nameTaken(name);
    throw err;
  };
}

export async function saveWorkflow(
  deps: Deps,
  actor: Actor,
  body: Out<typeof ZSaveWorkflowBody>,
): Promise<TWorkflow> {
  const id = await deps.db
    .$transaction(async (tx) => {
      const before = body.id ? await repo.findWorkflowHead(tx, body.id) : null;
      if (body.id && !before) throw workflowNotFound();
      if (await repo.workflowByName(tx, body.name, body.id)) throw nameTaken(body.name);
      const categoryIds = [...new Set(body.category_ids ?? [])];
      if (body.category_ids) {
        const live = await repo.liveCategoryIds(tx, categoryIds);
        const unknown = categoryIds.filter((c) => !live.has(c));
        if (unknown.length) throw badField('body.category_ids', `Unknown categories: ${unknown.join(', ')}`);
      }
      if (body.status === 'active' && before?.status !== 'active')
        await checkActivation(tx, before?.id ?? null);

      const workflow = before
        ? await repo.updateWorkflow(tx, before.id, {
            name: body.name,
            description: body.description,
            status: body.status,
          })
        : await repo.createWorkflow(tx, {
            name: body.name,
            description: body.description ?? '',
            status: body.status ?? 'draft',
            createdById: actor.userId,
          });
      if (body.category_ids) await repo.setCategories(tx, workflow.id, categoryIds);
      const activating = body.status === 'active' && before !== null && before.status !== 'active';
      await audit(tx, actor, {
        ...AUDIT,
        action: before ? 'workflow.updated' : 'workflow.created',
        message: `${before ? 'Updated' : 'Created'} workflow "${workflow.name}"`,
        targetId: workflow.id,
        details: {
          name: workflow.name,
          description: workflow.description,
          status: workflow.status,
          ...(body.category_ids ? { category_ids: categoryIds } : {}),
          ...(before
            ? { before: { name: before.name, description: before.description, status: before.status } }
            : {}),
        },
      });
      if (activating) await startOnIndexing(tx, actor, workflow);
      return workflow.id;
    })
    .catch(nameRace(body.name));
  return getWorkflow(deps, id);
}

export async function deleteWorkflow(deps: Deps, actor: Actor, id: number): Promise<void> {
  await deps.db.$transaction(async (tx) => {
    const workflow = await repo.findWorkflowHead(tx, id);
    if (!workflow) throw workflowNotFound();
    const running = (await repo.runningByWorkflow(tx, [id])).get(id) ?? 0;
    if (running > 0) throw workflowInUse(running);
    const ran = await repo.hasInstances(tx, id);
    if (ran) await repo.retireWorkflow(tx, id, deps.now());
    else await repo.removeWorkflow(tx, id);
    await audit(tx, actor, {
      ...AUDIT,
      action: 'workflow.deleted',
      message: `Deleted workflow "${workflow.name}"${ran ? ' (its finished runs keep their history)' : ''}`,
      targetId: id,
      details: { name: workflow.name, retired: ran },
    });
  });
}

async function loadFields(db: Tx, ids: number[], path: string): Promise<Map<number, FieldMeta>> {
  const fields = await repo.fieldsById(db, ids);
  const unknown = ids.filter((id) => !fields.has(id));
  if (unknown.length) throw badField(path, `Unknown metadata fields: ${[...new Set(unknown)].join(', ')}`);
  return fields;
}

/** Checks defaults against their fields' types; answers them as stored text. */
async function checkDefaults(
  db: Tx,
  fields: Map<number, FieldMeta>,
  defaults: Array<{ field_id: number; value: TWorkflowValue }>,
  path: string,
): Promise<Map<number, string | null>> {
  const userIds = defaults.flatMap((d) =>
    fields.get(d.field_id)?.type === 'user' && typeof d.value === 'number' ? [d.value] : [],
  );
  const users = await repo.activeUserIds(db, userIds);
  const { values, errors } = checkValues(fields, defaults, (u) => users.has(u), path);
  if (errors.length) throw badFields(errors);
  return new Map([...values].map(([k, v]) => [k, toText(v)]));
}

export async function saveWorkflowMetadata(
  deps: Deps,
  actor: Actor,
  body: Out<typeof ZWorkflowMetadataBody>,
): Promise<TWorkflow> {
  await deps.db.$transaction(async (tx) => {
    const workflow = await repo.findWorkflowHead(tx, body.id);
    if (!workflow) throw workflowNotFound();
    const fields = await loadFields(
      tx,
      body.fields.map((f) => f.field_id),
      'body.fields',
    );
    const defaults = await checkDefaults(
      tx,
      fields,
      body.fields.map((f) => ({ field_id: f.field_id, value: f.default_value ?? null })),
      'body.fields',
    );
    await repo.replaceWorkflowFields(
      tx,
      workflow.id,
      body.fields.map((f) => ({
        fieldId: f.field_id,
        required: f.required ?? false,
        defaultValue: defaults.get(f.field_id) ?? null,
      })),
    );
    await audit(tx, actor, {
      ...AUDIT,
      action: 'workflow.metadata_updated',
      message: `Set the metadata of workflow "${workflow.name}" (${body.fields.length} field(s))`,
      targetId: workflow.id,
      details: {
        fields: body.fields.map((f) => ({ ...f, default_value: defaults.get(f.field_id) ?? null })),
      },
    });
  });
  return getWorkflow(deps, body.id);
}

export async function recipients(deps: Deps) {
  const [users, groups] = await repo.recipients(deps.db);
  return {
    users: users.map((u) => ({
      id: u.id,
      name: `${u.firstName} ${u.lastName}`.trim() || u.username,
      username: u.username,
      email: u.email,
    })),
    groups: groups.map((g) => ({ id: g.id, name: g.name, member_count: g._count.members })),
  };
}

// ---- steps ----------------------------------------------------------------------------------

export async function getStep(deps: Deps, id: number, db: Tx = deps.db): Promise<TStep> {
  const row = await repo.findStep(db, id);
  if (!row) throw stepNotFound();
  const [running, names] = await Promise.all([repo.runningByStep(db, [id]), namesFor(db, [row])]);
  return toStepDto(row, running, names);
}

/** A step of a live workflow (the row without its details), or 404. */
async function stepOf(db: Tx, id: number) {
  const step = await repo.findStepHead(db, id);
  if (!step) throw stepNotFound();
  return step;
}

async function checkRouteTarget(
  steps: Array<{ id: number }>,
  stepId: number | null | undefined,
  path: string,
): Promise<void> {
  if (stepId && !steps.some((s) => s.id === stepId))
    throw badField(path, 'Choose a step of the same workflow');
}

/** The notification rule every new step starts with: its assignees hear of a file entering it. */
const ASSIGNEES_TOLD = (stepId: number): repo.NotificationData => ({
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
    const told = before ? null : await repo.saveNotification(tx, undefined, ASSIGNEES_TOLD(step.id));
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
      message: `Deleted step "${step.name}" of workflow "${step.workflow.name}"`,
      targetId: step.workflowId,
      details: { step_id: id, name: step.name },
    });
  });
}

/** Refuses deleting a step detail while files wait in its step. */
async function assertStepIdle(tx: Tx, stepId: number, what: string) {
  const waiting = (await repo.runningByStep(tx, [stepId])).get(stepId) ?? 0;
  if (waiting > 0) throw detailInUse(what, waiting);
}

// ---- assignees ------------------------------------------------------------------------------

export async function listAssignees(deps: Deps, stepId: number): Promise<TStepAssignee[]> {
  await stepOf(deps.db, stepId);
  return (await repo.assigneesOf(deps.db, stepId)).map(toAssigneeDto);
}

export async function saveAssignees(
  deps: Deps,
  actor: Actor,
  body: Out<typeof ZSaveAssigneesBody>,
): Promise<TStepAssignee[]> {
  return deps.db.$transaction(async (tx) => {
    const step = await stepOf(tx, body.workflow_step_id);
    const userIds = [...new Set(body.user_ids)];
    const groupIds = [...new Set(body.group_ids)];
    const [users, groups] = await Promise.all([repo.activeUserIds(tx, userIds), repo.groupIds(tx, groupIds)]);
    const errors: FieldError[] = [];
    const badUsers = userIds.filter((u) => !users.has(u));
    const badGroups = groupIds.filter((g) => !groups.has(g));
    if (badUsers.length)
      errors.push({ path: 'body.user_ids', message: `Unknown or inactive users: ${badUsers.join(', ')}` });
    if (badGroups.length)
      errors.push({ path: 'body.group_ids', message: `Unknown groups: ${badGroups.join(', ')}` });
    if (errors.length) throw badFields(errors);
    await repo.replaceAssignees(tx, step.id, userIds, groupIds);
    await audit(tx, actor, {
      ...AUDIT,
      action: 'workflow.assignees_updated',
      message: `Set the assignees of step "${step.name}" of workflow "${step.workflow.name}"`,
      targetId: step.workflowId,
      details: { step_id: step.id, user_ids: userIds, group_ids: groupIds },
    });
    return (await repo.assigneesOf(tx, step.id)).map(toAssigneeDto);
  });
}

export async function deleteAssignee(deps: Deps, actor: Actor, id: number): Promise<void> {
  await deps.db.$transaction(async (tx) => {
    const row = await repo.findAssignee(tx, id);
    if (!row) throw assigneeNotFound();
    const step = await stepOf(tx, row.stepId);
    await assertStepIdle(tx, step.id, 'assignees');
    await repo.removeAssignee(tx, id);
    await audit(tx, actor, {
      ...AUDIT,
      action: 'workflow.assignee_deleted',
      message: `Removed an assignee from step "${step.name}" of workflow "${step.workflow.name}"`,
      targetId: step.workflowId,
      details: { step_id: step.id, user_id: row.userId, group_id: row.groupId },
    });
  });
}

// ---- notifications --------------------------------------------------------------------------

export async function listNotifications(deps: Deps, stepId: number): Promise<TStepNotification[]> {
  await stepOf(deps.db, stepId);
  return (await repo.notificationsOf(deps.db, stepId)).map(toNotificationDto);
}

export async function saveNotification(
  deps: Deps,
  actor: Actor,
  body: Out<typeof ZSaveNotificationBody>,
): Promise<TStepNotification> {
  return deps.db.$transaction(async (tx) => {
    const step = await stepOf(tx, body.workflow_step_id);
    if (body.id) {
      const before = await repo.findNotification(tx, body.id);
      if (!before) throw notificationNotFound();
      if (before.stepId !== step.id)
        throw badField('body.workflow_step_id', 'This notification belongs to another step');
    }
    const userId = body.recipient === 'user' ? (body.user_id ?? null) : null;
    const groupId = body.recipient === 'group' ? (body.group_id ?? null) : null;
    if (userId && !(await repo.activeUserIds(tx, [userId])).has(userId))
      throw badField('body.user_id', 'Choose an active user');
    if (groupId && !(await repo.groupIds(tx, [groupId])).has(groupId))
      throw badField('body.group_id', 'Choose a group');
    const row = await repo.saveNotification(tx, body.id, {
      stepId: step.id,
      event: body.event,
      recipient: body.recipient,
      userId,
      groupId,
      inApp: body.in_app,
      email: body.email,
      subject: body.subject,
      body: body.body,
    });
    await audit(tx, actor, {
      ...AUDIT,
      action: body.id ? 'workflow.notification_updated' : 'workflow.notification_created',
      message: `${body.id ? 'Updated' : 'Added'} a notification (${body.event}, to ${body.recipient}) on step "${step.name}" of workflow "${step.workflow.name}"`,
      targetId: step.workflowId,
      details: { step_id: step.id, notification_id: row.id, event: body.event, recipient: body.recipient },
    });
    return toNotificationDto(row);
  });
}

export async function deleteNotification(deps: Deps, actor: Actor, id: number): Promise<void> {
  await deps.db.$transaction(async (tx) => {
    const row = await repo.findNotification(tx, id);
    if (!row) throw notificationNotFound();
    const step = await stepOf(tx, row.stepId);
    await assertStepIdle(tx, step.id, 'notifications');
    await repo.removeNotification(tx, id);
    await audit(tx, actor, {
      ...AUDIT,
      action: 'workflow.notification_deleted',
      message: `Deleted a notification (${row.event}) of step "${step.name}" of workflow "${step.workflow.name}"`,
      targetId: step.workflowId,
      details: { step_id: step.id, notification_id: id },
    });
  });
}

// ---- conditions -----------------------------------------------------------------------------

export async function listConditions(
  deps: Deps,
  stepId: number,
  mode: 'PRE' | 'POST',
): Promise<TStepCondition[]> {
  await stepOf(deps.db, stepId);
  return (await repo.conditionsOf(deps.db, stepId, mode)).map(toConditionDto);
}

/** The fields whose values a run carries: the workflow's metadata and every step's. */
async function workflowFieldIds(tx: Tx, workflowId: number): Promise<Set<number>> {
  const workflow = await repo.findWorkflow(tx, workflowId);
  return new Set([
    ...(workflow?.fields.map((f) => f.fieldId) ?? []),
    ...(workflow?.steps.flatMap((s) => s.fields.map((f) => f.fieldId)) ?? []),
  ]);
}

export async function saveCondition(
  deps: Deps,
  actor: Actor,
  body: Out<typeof ZSaveConditionBody>,
): Promise<TStepCondition> {
  return deps.db.$transaction(async (tx) => {
    const step = await stepOf(tx, body.workflow_step_id);
    const before = body.id ? await repo.findCondition(tx, body.id) : null;
    if (body.id && !before) throw conditionNotFound();
    if (before && before.stepId !== step.id)
      throw badField('body.workflow_step_id', 'This condition belongs to another step');
    const field = (await loadFields(tx, [body.field_id], 'body.field_id')).get(body.field_id) as FieldMeta;
    if (body.on_workflow_field && !(await workflowFieldIds(tx, step.workflowId)).has(field.id))
      throw badField('body.field_id', `"${field.name}" is not metadata of this workflow or of its steps`);
    if (
      (body.operator === 'gt' || body.operator === 'lt') &&
      (field.type === 'boolean' || field.type === 'user')
    )
      throw badField('body.operator', `"${field.name}" cannot be compared as greater or less`);
    const value = ['empty', 'not_empty'].includes(body.operator) ? null : (body.value ?? null);
    if (value !== null && body.operator !== 'contains') {
      for (const v of Array.isArray(value) ? value : [value]) {
        const checked = checkValue(field, v, () => true);
        if (!checked.ok) throw badField('body.value', `${field.name}: ${checked.message}`);
      }
    }
    const existing = await repo.conditionsOf(tx, step.id, body.mode);
    const position =
      body.position ??
      before?.position ??
      Math.max(0, ...existing.filter((c) => c.id !== body.id).map((c) => c.position)) + 1;
    const row = await repo.saveCondition(tx, body.id, {
      stepId: step.id,
      mode: body.mode,
      fieldId: field.id,
      onWorkflowField: body.on_workflow_field,
      operator: body.operator,
      value: conditionValueText(value),
      join: body.join,
      position,
    });
    await audit(tx, actor, {
      ...AUDIT,
      action: body.id ? 'workflow.condition_updated' : 'workflow.condition_created',
      message: `${body.id ? 'Updated' : 'Added'} a ${body.mode} condition on "${field.name}" to step "${step.name}" of workflow "${step.workflow.name}"`,
      targetId: step.workflowId,
      details: { step_id: step.id, condition_id: row.id, mode: body.mode, operator: body.operator, value },
    });
    return toConditionDto(row);
  });
}

export async function deleteCondition(deps: Deps, actor: Actor, id: number): Promise<void> {
  await deps.db.$transaction(async (tx) => {
    const row = await repo.findCondition(tx, id);
    if (!row) throw conditionNotFound();
    const step = await stepOf(tx, row.stepId);
    await assertStepIdle(tx, step.id, 'conditions');
    await repo.removeCondition(tx, id);
    await audit(tx, actor, {
      ...AUDIT,
      action: 'workflow.condition_deleted',
      message: `Deleted a ${row.mode} condition on "${row.field.name}" of step "${step.name}" of workflow "${step.workflow.name}"`,
      targetId: step.workflowId,
      details: { step_id: step.id, condition_id: id },
    });
  });
}

// ---- triggers -------------------------------------------------------------------------------

export async function listTriggers(deps: Deps, stepId: number): Promise<TStepTrigger[]> {
  await stepOf(deps.db, stepId);
  const rows = await repo.triggersOf(deps.db, stepId);
  const names = await namesFor(deps.db, [{ triggers: rows }]);
  return rows.map((t) => toTriggerDto(t, names));
}

export async function saveTrigger(
  deps: Deps,
  actor: Actor,
  body: Out<typeof ZSaveTriggerBody>,
): Promise<TStepTrigger> {
  const saved = await deps.db.$transaction(async (tx) => {
    const step = await stepOf(tx, body.workflow_step_id);
    const before = body.id ? await repo.findTrigger(tx, body.id) : null;
    if (body.id && !before) throw triggerNotFound();
    if (before && before.stepId !== step.id)
      throw badField('body.workflow_step_id', 'This trigger belongs to another step');
    const usesField = body.kind === 'on_field_change' || body.kind === 'on_date';
    const fieldId = usesField ? (body.field_id ?? null) : null;
    const field = fieldId ? (await loadFields(tx, [fieldId], 'body.field_id')).get(fieldId) : undefined;
    if (body.kind === 'on_date' && field && field.type !== 'date')
      throw badField('body.field_id', `"${field.name}" is not a date field`);
    const cron = body.kind === 'on_date' && !fieldId ? (body.cron ?? null) : null;
    if (cron) {
      try {
        checkCron(cron);
      } catch (err) {
        if (err instanceof CronError) throw badField('body.cron', CRON_NEVER_DUE);
        throw err;
      }
    }
    const value = body.kind === 'on_field_change' ? (body.value ?? null) : null;
    if (value !== null && field) {
      const checked = checkValue(field, value, () => true);
      if (!checked.ok) throw badField('body.value', `${field.name}: ${checked.message}`);
    }
    const steps = await repo.stepsOf(tx, step.workflowId);
    await checkRouteTarget(steps, body.target_step_id, 'body.target_step_id');
    const escalateUserId = body.kind === 'overdue' ? (body.escalate_user_id ?? null) : null;
    const escalateGroupId = body.kind === 'overdue' ? (body.escalate_group_id ?? null) : null;
    if (escalateUserId && !(await repo.activeUserIds(tx, [escalateUserId])).has(escalateUserId))
      throw badField('body.escalate_user_id', 'Choose an active user');
    if (escalateGroupId && !(await repo.groupIds(tx, [escalateGroupId])).has(escalateGroupId))
      throw badField('body.escalate_group_id', 'Choose a group');
    const row = await repo.saveTrigger(tx, body.id, {
      stepId: step.id,
      kind: body.kind,
      fieldId,
      value,
      cron,
      targetStepId:
        body.kind === 'on_field_change' || body.kind === 'on_date' ? (body.target_step_id ?? null) : null,
      escalateUserId,
      escalateGroupId,
      active: body.active,
    });
    await audit(tx, actor, {
      ...AUDIT,
      action: body.id ? 'workflow.trigger_updated' : 'workflow.trigger_created',
      message: `${body.id ? 'Updated' : 'Added'} a trigger (${body.kind}) on step "${step.name}" of workflow "${step.workflow.name}"`,
      targetId: step.workflowId,
      details: { step_id: step.id, trigger_id: row.id, kind: body.kind, field_id: fieldId, cron, value },
    });
    return row;
  });
  const names = await namesFor(deps.db, [{ triggers: [saved] }]);
  return toTriggerDto(saved, names);
}

export async function deleteTrigger(deps: Deps, actor: Actor, id: number): Promise<void> {
  await deps.db.$transaction(async (tx) => {
    const row = await repo.findTrigger(tx, id);
    if (!row) throw triggerNotFound();
    const step = await stepOf(tx, row.stepId);
    await assertStepIdle(tx, step.id, 'triggers');
    await repo.removeTrigger(tx, id);
    await audit(tx, actor, {
      ...AUDIT,
      action: 'workflow.trigger_deleted',
      message: `Deleted a trigger (${row.kind}) of step "${step.name}" of workflow "${step.workflow.name}"`,
      targetId: step.workflowId,
      details: { step_id: step.id, trigger_id: id },
    });
  });
}

// ---- step metadata --------------------------------------------------------------------------

export async function listStepFields(deps: Deps, stepId: number, db: Tx = deps.db): Promise<TStepField[]> {
  await stepOf(db, stepId);
  return (await repo.stepFieldsOf(db, stepId)).map(toStepFieldDto);
}

export async function editStepFields(
  deps: Deps,
  actor: Actor,
  body: Out<typeof ZEditStepMetadataBody>,
): Promise<TStepField[]> {
  return deps.db.$transaction(async (tx) => {
    const step = await stepOf(tx, body.workflow_step_id);
    await loadFields(
      tx,
      body.fields.map((f) => f.field_id),
      'body.fields',
    );
    await repo.replaceStepFields(
      tx,
      step.id,
      body.fields.map((f) => ({ fieldId: f.field_id, editable: f.editable, required: f.required })),
    );
    await audit(tx, actor, {
      ...AUDIT,
      action: 'workflow.step_metadata_updated',
      message: `Set the metadata of step "${step.name}" of workflow "${step.workflow.name}" (${body.fields.length} field(s))`,
      targetId: step.workflowId,
      details: { step_id: step.id, fields: body.fields },
    });
    return listStepFields(deps, step.id, tx);
  });
}

export async function setStepDefaults(
  deps: Deps,
  actor: Actor,
  body: Out<typeof ZSetDefaultMetadataBody>,
): Promise<TStepField[]> {
  return deps.db.$transaction(async (tx) => {
    const step = await stepOf(tx, body.workflow_step_id);
    const own = await repo.stepFieldsOf(tx, step.id);
    const fields = new Map(own.map((f) => [f.fieldId, repo.toFieldMeta(f.field)]));
    const defaults = await checkDefaults(tx, fields, body.defaults, 'body.defaults');
    for (const [fieldId, text] of defaults) await repo.setStepDefault(tx, step.id, fieldId, text);
    await audit(tx, actor, {
      ...AUDIT,
      action: 'workflow.step_defaults_updated',
      message: `Set ${defaults.size} default value(s) of step "${step.name}" of workflow "${step.workflow.name}"`,
      targetId: step.workflowId,
      details: { step_id: step.id, defaults: Object.fromEntries(defaults) },
    });
    return listStepFields(deps, step.id, tx);
  });
}
