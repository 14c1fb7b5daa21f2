import type {
  TStepAssignee,
  TStepField,
  TStepNotification,
  ZEditStepMetadataBody,
  ZSaveAssigneesBody,
  ZSaveNotificationBody,
  ZSetDefaultMetadataBody,
} from '@quire/contract';
import { type Actor, audit } from '../../lib/audit.js';
import type { Deps, Tx } from '../../lib/deps.js';
import type { FieldError } from '../../lib/errors.js';
import { toAssigneeDto, toNotificationDto, toStepFieldDto } from './design.dto.js';
import * as repo from './design.repository.js';
import { AUDIT, checkDefaults, loadFields, type Out } from './design.service.js';
import {
  checkRecipient,
  deleteStepDetail,
  stepAndDetail,
  stepLabel,
  stepOf,
} from './design-steps.service.js';
import * as detailsRepo from './step-details.repository.js';
import { badFields } from './workflow.errors.js';

// The details of a workflow step (spec §3): its assignees, notification rules and the metadata
// its form asks for. File Control calls, each write a transaction with its audit event; the
// step's conditions and triggers are step-rules.service.ts, the steps themselves
// design-steps.service.ts.

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
    await repo.lockWorkflow(tx, step.workflowId);
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
      message: `Set the assignees of ${stepLabel(step)}`,
      targetId: step.workflowId,
      details: { step_id: step.id, user_ids: userIds, group_ids: groupIds },
    });
    return (await detailsRepo.assigneesOf(tx, step.id)).map(toAssigneeDto);
  });
}

export function deleteAssignee(deps: Deps, actor: Actor, id: number): Promise<void> {
  return deleteStepDetail(deps, actor, 'assignee', id, (row, step) => ({
    action: 'workflow.assignee_deleted',
    message: `Removed an assignee from ${stepLabel(step)}`,
    details: { step_id: step.id, user_id: row.userId, group_id: row.groupId },
  }));
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
    const { step } = await stepAndDetail(tx, 'notification', body);
    const userId = body.recipient === 'user' ? (body.user_id ?? null) : null;
    const groupId = body.recipient === 'group' ? (body.group_id ?? null) : null;
    await checkRecipient(tx, userId, groupId, { user: 'body.user_id', group: 'body.group_id' });
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
      message: `${body.id ? 'Updated' : 'Added'} a notification (${body.event}, to ${body.recipient}) on ${stepLabel(step)}`,
      targetId: step.workflowId,
      details: { step_id: step.id, notification_id: row.id, event: body.event, recipient: body.recipient },
    });
    return toNotificationDto(row);
  });
}

export function deleteNotification(deps: Deps, actor: Actor, id: number): Promise<void> {
  return deleteStepDetail(deps, actor, 'notification', id, (row, step) => ({
    action: 'workflow.notification_deleted',
    message: `Deleted a notification (${row.event}) of ${stepLabel(step)}`,
    details: { step_id: step.id, notification_id: id },
  }));
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
    await repo.lockWorkflow(tx, step.workflowId);
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
      message: `Set the metadata of ${stepLabel(step)} (${body.fields.length} field(s))`,
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
      message: `Set ${defaults.size} default value(s) of ${stepLabel(step)}`,
      targetId: step.workflowId,
      details: { step_id: step.id, defaults: Object.fromEntries(defaults) },
    });
    return listStepFields(deps, step.id, tx);
  });
}
