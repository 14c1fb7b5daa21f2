import type {
  TStep,
  TStepAssignee,
  TStepCondition,
  TStepField,
  TStepNotification,
  TStepTrigger,
  TWorkflow,
  TWorkflowSummary,
} from '@quire/contract';
import type { StepRow, WorkflowRow, WorkflowSummaryRow } from './design.repository.js';
import { toFieldMeta } from './design.repository.js';
import { expectedOf } from './workflow.conditions.js';
import { type FieldMeta, fromText } from './workflow.values.js';

// Rows of the design as the calls show them.

export const personName = (u: { username: string; firstName: string; lastName: string }) =>
  `${u.firstName} ${u.lastName}`.trim() || u.username;

export const optionsOf = (field: FieldMeta) =>
  field.options.filter((o) => !o.archived).map((o) => ({ key: o.key, label: o.label }));

export function toAssigneeDto(a: StepRow['assignees'][number]): TStepAssignee {
  return {
    id: a.id,
    step_id: a.stepId,
    kind: a.userId !== null ? 'user' : 'group',
    user_id: a.userId,
    group_id: a.groupId,
    name: a.user ? personName(a.user) : (a.group?.name ?? ''),
  };
}

export function toNotificationDto(n: StepRow['notifications'][number]): TStepNotification {
  return {
    id: n.id,
    step_id: n.stepId,
    event: n.event,
    recipient: n.recipient,
    user_id: n.userId,
    group_id: n.groupId,
    recipient_name: n.user ? personName(n.user) : (n.group?.name ?? null),
    in_app: n.inApp,
    email: n.email,
    subject: n.subject,
    body: n.body,
  };
}

export function toConditionDto(c: StepRow['conditions'][number]): TStepCondition {
  return {
    id: c.id,
    step_id: c.stepId,
    mode: c.mode,
    field_id: c.fieldId,
    field_name: c.field.name,
    field_type: c.field.type,
    on_workflow_field: c.onWorkflowField,
    operator: c.operator,
    value: expectedOf(c),
    join: c.join,
    position: c.position,
  };
}

export interface Names {
  users: Map<number, string>;
  groups: Map<number, string>;
}

export function toTriggerDto(t: StepRow['triggers'][number], names: Names): TStepTrigger {
  return {
    id: t.id,
    step_id: t.stepId,
    kind: t.kind,
    field_id: t.fieldId,
    field_name: t.field?.name ?? null,
    value: t.value,
    cron: t.cron,
    target_step_id: t.targetStepId,
    escalate_user_id: t.escalateUserId,
    escalate_group_id: t.escalateGroupId,
    escalate_name:
      (t.escalateUserId ? names.users.get(t.escalateUserId) : undefined) ??
      (t.escalateGroupId ? names.groups.get(t.escalateGroupId) : undefined) ??
      null,
    active: t.active,
  };
}

export function toStepFieldDto(f: StepRow['fields'][number]): TStepField {
  return stepFieldOf(toFieldMeta(f.field), f);
}

/** A step's field as the designer and a run's form show it, from the field's meta and the step's row. */
export function stepFieldOf(
  meta: FieldMeta,
  f: Pick<StepRow['fields'][number], 'fieldId' | 'editable' | 'required' | 'defaultValue' | 'position'>,
): TStepField {
  return {
    field_id: f.fieldId,
    name: meta.name,
    type: meta.type,
    options: optionsOf(meta),
    editable: f.editable,
    required: f.required,
    default_value: fromText(meta, f.defaultValue),
    position: f.position,
  };
}

/** The user and group ids a step's triggers name, to look their names up. */
export function escalationIds(steps: Array<Pick<StepRow, 'triggers'>>) {
  const triggers = steps.flatMap((s) => s.triggers);
  return {
    users: triggers.flatMap((t) => (t.escalateUserId ? [t.escalateUserId] : [])),
    groups: triggers.flatMap((t) => (t.escalateGroupId ? [t.escalateGroupId] : [])),
  };
}

export function toStepDto(s: StepRow, running: Map<number, number>, names: Names): TStep {
  return {
    id: s.id,
    workflow_id: s.workflowId,
    name: s.name,
    description: s.description,
    position: s.position,
    due_hours: s.dueHours,
    completion: s.completion,
    quorum: s.quorum,
    on_approve: s.onApprove,
    on_approve_step_id: s.onApproveStepId,
    on_reject: s.onReject,
    on_reject_step_id: s.onRejectStepId,
    running_count: running.get(s.id) ?? 0,
    assignees: s.assignees.map(toAssigneeDto),
    notifications: s.notifications.map(toNotificationDto),
    conditions: s.conditions.map(toConditionDto),
    triggers: s.triggers.map((t) => toTriggerDto(t, names)),
    fields: s.fields.map(toStepFieldDto),
  };
}

export function toSummaryDto(w: WorkflowSummaryRow, running: Map<number, number>): TWorkflowSummary {
  return {
    id: w.id,
    name: w.name,
    description: w.description,
    status: w.status,
    step_count: w._count.steps,
    categories: w.categories,
    running_count: running.get(w.id) ?? 0,
    updated_at: w.updatedAt.toISOString(),
  };
}

export function toWorkflowDto(
  w: WorkflowRow,
  running: { byWorkflow: Map<number, number>; byStep: Map<number, number> },
  names: Names,
  choices: FieldMeta[],
): TWorkflow {
  return {
    id: w.id,
    name: w.name,
    description: w.description,
    status: w.status,
    step_count: w.steps.length,
    categories: w.categories,
    running_count: running.byWorkflow.get(w.id) ?? 0,
    updated_at: w.updatedAt.toISOString(),
    fields: w.fields.map((f) => {
      const meta = toFieldMeta(f.field);
      return {
        field_id: f.fieldId,
        name: meta.name,
        type: meta.type,
        options: optionsOf(meta),
        required: f.required,
        default_value: fromText(meta, f.defaultValue),
        position: f.position,
      };
    }),
    steps: w.steps.map((s) => toStepDto(s, running.byStep, names)),
    field_choices: choices.map((f) => ({
      field_id: f.id,
      name: f.name,
      type: f.type,
      options: optionsOf(f),
    })),
  };
}
