import type { TStepCondition, TStepTrigger, ZSaveConditionBody, ZSaveTriggerBody } from '@quire/contract';
import { type Actor, audit } from '../../lib/audit.js';
import type { Deps, Tx } from '../../lib/deps.js';
import { badField } from '../../lib/errors.js';
import { CRON_NEVER_DUE, CronError, checkCron } from '../../lib/jobs/schedules.js';
import { toConditionDto, toTriggerDto } from './design.dto.js';
import * as repo from './design.repository.js';
import { AUDIT, loadFields, namesFor, type Out } from './design.service.js';
import {
  checkRecipient,
  checkRouteTarget,
  deleteStepDetail,
  stepAndDetail,
  stepLabel,
  stepOf,
} from './design-steps.service.js';
import * as detailsRepo from './step-details.repository.js';
import { conditionValueText } from './workflow.conditions.js';
import { checkValue, type FieldMeta } from './workflow.values.js';

// The rules of a workflow step (spec §3): its PRE and POST conditions and its triggers. File
// Control calls, each write a transaction with its audit event.

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
    const { step, before } = await stepAndDetail(tx, 'condition', body);
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
      message: `${body.id ? 'Updated' : 'Added'} a ${body.mode} condition on "${field.name}" to ${stepLabel(step)}`,
      targetId: step.workflowId,
      details: { step_id: step.id, condition_id: row.id, mode: body.mode, operator: body.operator, value },
    });
    return toConditionDto(row);
  });
}

export function deleteCondition(deps: Deps, actor: Actor, id: number): Promise<void> {
  return deleteStepDetail(deps, actor, 'condition', id, (row, step) => ({
    action: 'workflow.condition_deleted',
    message: `Deleted a ${row.mode} condition on "${row.field.name}" of ${stepLabel(step)}`,
    details: { step_id: step.id, condition_id: id },
  }));
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
    const { step } = await stepAndDetail(tx, 'trigger', body);
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
    await checkRecipient(tx, escalateUserId, escalateGroupId, {
      user: 'body.escalate_user_id',
      group: 'body.escalate_group_id',
    });
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
      message: `${body.id ? 'Updated' : 'Added'} a trigger (${body.kind}) on ${stepLabel(step)}`,
      targetId: step.workflowId,
      details: { step_id: step.id, trigger_id: row.id, kind: body.kind, field_id: fieldId, cron, value },
    });
    return row;
  });
  const names = await namesFor(deps.db, [{ triggers: [saved] }]);
  return toTriggerDto(saved, names);
}

export function deleteTrigger(deps: Deps, actor: Actor, id: number): Promise<void> {
  return deleteStepDetail(deps, actor, 'trigger', id, (row, step) => ({
    action: 'workflow.trigger_deleted',
    message: `Deleted a trigger (${row.kind}) of ${stepLabel(step)}`,
    details: { step_id: step.id, trigger_id: id },
  }));
}
