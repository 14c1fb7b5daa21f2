import type {
  TStepAssignee,
  TStepCondition,
  TStepField,
  TStepNotification,
  TStepTrigger,
  ZEditStepMetadataBody,
  ZSaveAssigneesBody,
  ZSaveConditionBody,
  ZSaveNotificationBody,
  ZSaveTriggerBody,
  ZSetDefaultMetadataBody,
} from '@quire/contract';
import { type Actor, audit } from '../../lib/audit.js';
import type { Deps, Tx } from '../../lib/deps.js';
import type { FieldError } from '../../lib/errors.js';
import { CRON_NEVER_DUE, CronError, checkCron } from '../../lib/jobs/schedules.js';
import {
  toAssigneeDto,
  toConditionDto,
  toNotificationDto,
  toStepFieldDto,
  toTriggerDto,
} from './design.dto.js';
import * as repo from './design.repository.js';
import { AUDIT, checkDefaults, loadFields, namesFor, type Out } from './design.service.js';
import { assertStepIdle, checkRouteTarget, stepOf } from './design-steps.service.js';
import * as detailsRepo from './step-details.repository.js';
import { conditionValueText } from './workflow.conditions.js';
import {
  assigneeNotFound,
  badField,
  badFields,
  conditionNotFound,
  notificationNotFound,
  triggerNotFound,
} from './workflow.errors.js';
import { checkValue, type FieldMeta } from './workflow.values.js';

// The details of a workflow step (spec §3): its assignees, notification rules, PRE and POST
// conditions, triggers and the metadata its form asks for. File Control calls, each write a
// transaction with its audit event; the workflows and steps themselves are design.service.ts.

// ---- assignees ------------------------------------------------------------------------------

export async function listAssignees(deps: Deps, stepId: number): Promise<TStepAssignee[]> {
  await stepOf(deps.db, stepId);
  return (await detailsRepo.assigneesOf(deps.db, stepId)).map(toAssigneeDto);
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
    const [users, groups] = await Promise.all([
      detailsRepo.activeUserIds(tx, userIds),
      detailsRepo.groupIds(tx, groupIds),
    ]);
    const errors: FieldError[] = [];
    const badUsers = userIds.filter((u) => !users.has(u));
    const badGroups = groupIds.filter((g) => !groups.has(g));
    if (badUsers.length)
      errors.push({ path: 'body.user_ids', message: `Unknown or inactive users: ${badUsers.join(', ')}` });
    if (badGroups.length)
      errors.push({ path: 'body.group_ids', message: `Unknown groups: ${badGroups.join(', ')}` });
    if (errors.length) throw badFields(errors);
    await detailsRepo.replaceAssignees(tx, step.id, userIds, groupIds);
    await audit(tx, actor, {
      ...AUDIT,
      action: 'workflow.assignees_updated',
      message: `Set the assignees of step "${step.name}" of workflow "${step.workflow.name}"`,
      targetId: step.workflowId,
      details: { step_id: step.id, user_ids: userIds, group_ids: groupIds },
    });
    return (await detailsRepo.assigneesOf(tx, step.id)).map(toAssigneeDto);
  });
}

export async function deleteAssignee(deps: Deps, actor: Actor, id: number): Promise<void> {
  await deps.db.$transaction(async (tx) => {
    const row = await detailsRepo.findAssignee(tx, id);
    if (!row) throw assigneeNotFound();
    const step = await stepOf(tx, row.stepId);
    await assertStepIdle(tx, step.id, 'assignees');
    await detailsRepo.removeAssignee(tx, id);
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
  return (await detailsRepo.notificationsOf(deps.db, stepId)).map(toNotificationDto);
}

export async function saveNotification(
  deps: Deps,
  actor: Actor,
  body: Out<typeof ZSaveNotificationBody>,
): Promise<TStepNotification> {
  return deps.db.$transaction(async (tx) => {
    const step = await stepOf(tx, body.workflow_step_id);
    if (body.id) {
      const before = await detailsRepo.findNotification(tx, body.id);
      if (!before) throw notificationNotFound();
      if (before.stepId !== step.id)
        throw badField('body.workflow_step_id', 'This notification belongs to another step');
    }
    const userId = body.recipient === 'user' ? (body.user_id ?? null) : null;
    const groupId = body.recipient === 'group' ? (body.group_id ?? null) : null;
    if (userId && !(await detailsRepo.activeUserIds(tx, [userId])).has(userId))
      throw badField('body.user_id', 'Choose an active user');
    if (groupId && !(await detailsRepo.groupIds(tx, [groupId])).has(groupId))
      throw badField('body.group_id', 'Choose a group');
    const row = await detailsRepo.saveNotification(tx, body.id, {
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
    const row = await detailsRepo.findNotification(tx, id);
    if (!row) throw notificationNotFound();
    const step = await stepOf(tx, row.stepId);
    await assertStepIdle(tx, step.id, 'notifications');
    await detailsRepo.removeNotification(tx, id);
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
  return (await detailsRepo.conditionsOf(deps.db, stepId, mode)).map(toConditionDto);
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
    const before = body.id ? await detailsRepo.findCondition(tx, body.id) : null;
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
    const existing = await detailsRepo.conditionsOf(tx, step.id, body.mode);
    const position =
      body.position ??
      before?.position ??
      Math.max(0, ...existing.filter((c) => c.id !== body.id).map((c) => c.position)) + 1;
    const row = await detailsRepo.saveCondition(tx, body.id, {
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
    const row = await detailsRepo.findCondition(tx, id);
    if (!row) throw conditionNotFound();
    const step = await stepOf(tx, row.stepId);
    await assertStepIdle(tx, step.id, 'conditions');
    await detailsRepo.removeCondition(tx, id);
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
  const rows = await detailsRepo.triggersOf(deps.db, stepId);
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
    const before = body.id ? await detailsRepo.findTrigger(tx, body.id) : null;
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
    if (escalateUserId && !(await detailsRepo.activeUserIds(tx, [escalateUserId])).has(escalateUserId))
      throw badField('body.escalate_user_id', 'Choose an active user');
    if (escalateGroupId && !(await detailsRepo.groupIds(tx, [escalateGroupId])).has(escalateGroupId))
      throw badField('body.escalate_group_id', 'Choose a group');
    const row = await detailsRepo.saveTrigger(tx, body.id, {
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
    const row = await detailsRepo.findTrigger(tx, id);
    if (!row) throw triggerNotFound();
    const step = await stepOf(tx, row.stepId);
    await assertStepIdle(tx, step.id, 'triggers');
    await detailsRepo.removeTrigger(tx, id);
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
  return (await detailsRepo.stepFieldsOf(db, stepId)).map(toStepFieldDto);
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
    await detailsRepo.replaceStepFields(
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
    const own = await detailsRepo.stepFieldsOf(tx, step.id);
    const fields = new Map(own.map((f) => [f.fieldId, repo.toFieldMeta(f.field)]));
    const defaults = await checkDefaults(tx, fields, body.defaults, 'body.defaults');
    for (const [fieldId, text] of defaults) await detailsRepo.setStepDefault(tx, step.id, fieldId, text);
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
