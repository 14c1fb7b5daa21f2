import { z } from 'zod';
import { ZId, zLine } from './common.js';
import { ZFieldType } from './metadata.js';

// The shapes shared by the workflow calls (spec §3 "Workflow"): the design (a workflow, its
// ordered steps and each step's details); the bodies that save them are workflow-bodies.ts,
// a file's run through it is workflow-run-model.ts. The calls themselves are in workflow.ts
// and, for the calls the spec files under other areas, category-workflow.ts,
// file-workflow.ts and file-actions-workflow.ts.

export const WORKFLOW_STATUSES = ['draft', 'active'] as const;
export const STEP_COMPLETIONS = ['any', 'all', 'quorum'] as const;
export const STEP_ROUTES = ['next', 'step', 'previous', 'end'] as const;
export const STEP_EVENTS = ['entered', 'completed', 'rejected', 'overdue'] as const;
export const RECIPIENT_KINDS = ['assignees', 'initiator', 'owner', 'followers', 'user', 'group'] as const;
export const CONDITION_MODES = ['PRE', 'POST'] as const;
export const CONDITION_OPERATORS = [
  'eq',
  'ne',
  'gt',
  'lt',
  'contains',
  'empty',
  'not_empty',
  'in_list',
] as const;
export const CONDITION_JOINS = ['and', 'or'] as const;
export const TRIGGER_KINDS = ['on_index', 'on_field_change', 'on_date', 'overdue'] as const;
export const RUN_STATUSES = ['running', 'completed', 'cancelled', 'rejected'] as const;
export const TRANSITION_KINDS = [
  'started',
  'approved',
  'rejected',
  'moved',
  'triggered',
  'escalated',
  'completed',
  'cancelled',
] as const;
export const TASK_STATUSES = ['open', 'approved', 'rejected', 'cancelled'] as const;
/** What a person does in `manual-triger`: an assignee approves or rejects; File Control moves or cancels. */
export const RUN_ACTIONS = ['approve', 'reject', 'move', 'cancel'] as const;

export const ZWorkflowStatus = z.enum(WORKFLOW_STATUSES);
export const ZStepCompletion = z.enum(STEP_COMPLETIONS);
export const ZStepRoute = z.enum(STEP_ROUTES);
export const ZStepEvent = z.enum(STEP_EVENTS);
export const ZRecipientKind = z.enum(RECIPIENT_KINDS);
export const ZConditionMode = z.enum(CONDITION_MODES);
export const ZConditionOperator = z.enum(CONDITION_OPERATORS);
export const ZConditionJoin = z.enum(CONDITION_JOINS);
export const ZTriggerKind = z.enum(TRIGGER_KINDS);
export const ZRunStatus = z.enum(RUN_STATUSES);
export const ZTransitionKind = z.enum(TRANSITION_KINDS);
export const ZTaskStatus = z.enum(TASK_STATUSES);
export const ZRunAction = z.enum(RUN_ACTIONS);

export type TStepCompletion = z.infer<typeof ZStepCompletion>;
export type TStepRoute = z.infer<typeof ZStepRoute>;
export type TConditionOperator = z.infer<typeof ZConditionOperator>;
export type TFieldType = z.infer<typeof ZFieldType>;
export type TTriggerKind = z.infer<typeof ZTriggerKind>;
export type TRecipientKind = z.infer<typeof ZRecipientKind>;

/** An object named in an answer. */
export const ZRef = z.object({ id: z.number().int(), name: z.string() });
export type TRef = z.infer<typeof ZRef>;

/** A choice of a value-list (select) field. */
export const ZFieldOption = z.object({ key: z.number().int(), label: z.string() });

/**
 * A metadata value on the wire: text, a number, yes/no, a date (`YYYY-MM-DD`), a value-list
 * item's key (select), a user's id (user); null clears it.
 */
export const ZWorkflowValue = z.union([zLine().max(1000), z.number().finite(), z.boolean(), z.null()]);
export type TWorkflowValue = z.infer<typeof ZWorkflowValue>;

/** Values keyed by field: `[{ field_id, value }]`, each field at most once. */
export const ZFieldValues = z
  .array(z.object({ field_id: ZId, value: ZWorkflowValue }))
  .max(200)
  .refine((list) => new Set(list.map((v) => v.field_id)).size === list.length, 'Give each field once');

/** A metadata field with what a form needs to show it. */
const fieldShape = {
  field_id: z.number().int(),
  name: z.string(),
  type: ZFieldType,
  /** The value list's items, for select fields (empty otherwise). */
  options: z.array(ZFieldOption),
};

// ---- design -------------------------------------------------------------------------------

export const ZWorkflowField = z.object({
  ...fieldShape,
  required: z.boolean(),
  default_value: ZWorkflowValue,
  position: z.number().int(),
});

export const ZStepAssignee = z.object({
  id: z.number().int(),
  step_id: z.number().int(),
  kind: z.enum(['user', 'group']),
  user_id: z.number().int().nullable(),
  group_id: z.number().int().nullable(),
  name: z.string(),
});
export type TStepAssignee = z.infer<typeof ZStepAssignee>;

export const ZStepNotification = z.object({
  id: z.number().int(),
  step_id: z.number().int(),
  event: ZStepEvent,
  recipient: ZRecipientKind,
  user_id: z.number().int().nullable(),
  group_id: z.number().int().nullable(),
  /** The named user or group (recipient `user` / `group`). */
  recipient_name: z.string().nullable(),
  in_app: z.boolean(),
  email: z.boolean(),
  subject: z.string(),
  body: z.string(),
});
export type TStepNotification = z.infer<typeof ZStepNotification>;

/** A condition's value: one value, or the list of values of `in_list`; null for empty / not_empty. */
export const ZConditionValue = z
  .union([zLine().max(1000), z.array(zLine().max(1000)).min(1).max(200)])
  .nullable();

/** A condition's operator in words, as the designer and the failures say it. */
export const CONDITION_OPERATOR_WORDS: Record<TConditionOperator, string> = {
  eq: 'is',
  ne: 'is not',
  gt: 'is greater than',
  lt: 'is less than',
  contains: 'contains',
  empty: 'is empty',
  not_empty: 'is not empty',
  in_list: 'is one of',
};

/** A condition as a sentence: "Amount is greater than 1000", "Status is one of Paid, Open". */
export function conditionWords(
  field: string,
  operator: TConditionOperator,
  value: string | readonly string[] | null,
): string {
  const shown = typeof value === 'string' || value === null ? value : value.join(', ');
  return `${field} ${CONDITION_OPERATOR_WORDS[operator]}${shown === null ? '' : ` ${shown}`}`;
}

export const ZStepCondition = z.object({
  id: z.number().int(),
  step_id: z.number().int(),
  mode: ZConditionMode,
  field_id: z.number().int(),
  field_name: z.string(),
  field_type: ZFieldType,
  on_workflow_field: z.boolean(),
  operator: ZConditionOperator,
  value: ZConditionValue,
  join: ZConditionJoin,
  position: z.number().int(),
});
export type TStepCondition = z.infer<typeof ZStepCondition>;

export const ZStepTrigger = z.object({
  id: z.number().int(),
  step_id: z.number().int(),
  kind: ZTriggerKind,
  field_id: z.number().int().nullable(),
  field_name: z.string().nullable(),
  value: z.string().nullable(),
  cron: z.string().nullable(),
  target_step_id: z.number().int().nullable(),
  escalate_user_id: z.number().int().nullable(),
  escalate_group_id: z.number().int().nullable(),
  escalate_name: z.string().nullable(),
  active: z.boolean(),
});
export type TStepTrigger = z.infer<typeof ZStepTrigger>;

export const ZStepField = z.object({
  ...fieldShape,
  editable: z.boolean(),
  required: z.boolean(),
  default_value: ZWorkflowValue,
  position: z.number().int(),
});
export type TStepField = z.infer<typeof ZStepField>;

export const ZStep = z.object({
  id: z.number().int(),
  workflow_id: z.number().int(),
  name: z.string(),
  description: z.string(),
  position: z.number().int(),
  due_hours: z.number().int().nullable(),
  completion: ZStepCompletion,
  quorum: z.number().int().nullable(),
  on_approve: ZStepRoute,
  on_approve_step_id: z.number().int().nullable(),
  on_reject: ZStepRoute,
  on_reject_step_id: z.number().int().nullable(),
  /** Files waiting in this step now. */
  running_count: z.number().int(),
  assignees: z.array(ZStepAssignee),
  notifications: z.array(ZStepNotification),
  conditions: z.array(ZStepCondition),
  triggers: z.array(ZStepTrigger),
  fields: z.array(ZStepField),
});
export type TStep = z.infer<typeof ZStep>;

export const ZWorkflowSummary = z.object({
  id: z.number().int(),
  name: z.string(),
  description: z.string(),
  status: ZWorkflowStatus,
  step_count: z.number().int(),
  categories: z.array(ZRef),
  /** Files running through it now. */
  running_count: z.number().int(),
  updated_at: z.string(),
});
export type TWorkflowSummary = z.infer<typeof ZWorkflowSummary>;

/** A metadata field the designer can choose (conditions, triggers, forms, workflow metadata). */
export const ZFieldChoice = z.object(fieldShape);

export const ZWorkflow = ZWorkflowSummary.extend({
  fields: z.array(ZWorkflowField),
  steps: z.array(ZStep),
  /** Every live metadata field, by name, for the designer's choices. */
  field_choices: z.array(ZFieldChoice),
});
export type TWorkflow = z.infer<typeof ZWorkflow>;

/** Who a step's assignees and notifications may name (the designer's pickers). */
export const ZRecipients = z.object({
  users: z.array(
    z.object({ id: z.number().int(), name: z.string(), username: z.string(), email: z.string() }),
  ),
  groups: z.array(z.object({ id: z.number().int(), name: z.string(), member_count: z.number().int() })),
});
