import { z } from 'zod';
import { ZId, ZText, zLine, zMultiline } from './common.js';
import { zCron } from './cron.js';
import { ZFieldType } from './metadata.js';

// The shapes shared by the workflow calls (spec §3 "Workflow"): the design (a workflow, its
// ordered steps and each step's details); a file's run through it is in workflow-run-model.ts.
// The calls themselves are in workflow.ts and, for the calls the spec files under other
// areas, category-workflow.ts, file-workflow.ts and file-actions-workflow.ts.
// Over 400 lines on purpose: it is the design's one vocabulary, read as a whole (the word
// lists both sides check against, a step and each of its details, and the body that saves
// each); the shapes of a run went to workflow-run-model.ts.

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

const ZName = ZText(150);
const ZDescription = zMultiline().trim().max(2000);

export const ZSaveWorkflowBody = z.object({
  /** Given: update that workflow; left out: create one. */
  id: ZId.optional(),
  name: ZName,
  description: ZDescription.optional(),
  status: ZWorkflowStatus.optional(),
  /** The categories it serves (each category has at most one workflow); replaces the list. */
  category_ids: z.array(ZId).max(1000).optional(),
});
export type TSaveWorkflowBody = z.input<typeof ZSaveWorkflowBody>;

const routeTarget =
  (route: 'on_approve' | 'on_reject') => (body: Record<string, unknown>, ctx: z.RefinementCtx) => {
    if (body[route] === 'step' && !body[`${route}_step_id`])
      ctx.addIssue({ code: 'custom', path: [`${route}_step_id`], message: 'Choose the step to go to' });
  };

export const ZSaveStepBody = z
  .object({
    id: ZId.optional(),
    workflow_id: ZId,
    name: ZName,
    description: ZDescription.optional(),
    /** 1-based place among the workflow's steps; the others shift (drag to reorder). */
    position: z.number().int().min(1).max(1000).optional(),
    due_hours: z.number().int().min(1).max(8760).nullable().optional(),
    completion: ZStepCompletion.optional(),
    quorum: z.number().int().min(1).max(1000).nullable().optional(),
    on_approve: ZStepRoute.optional(),
    on_approve_step_id: ZId.nullable().optional(),
    on_reject: ZStepRoute.optional(),
    on_reject_step_id: ZId.nullable().optional(),
  })
  .superRefine((body, ctx) => {
    if (body.completion === 'quorum' && !body.quorum)
      ctx.addIssue({
        code: 'custom',
        path: ['quorum'],
        message: 'Give how many approvals complete the step',
      });
    routeTarget('on_approve')(body, ctx);
    routeTarget('on_reject')(body, ctx);
  });
export type TSaveStepBody = z.input<typeof ZSaveStepBody>;

export const ZWorkflowMetadataBody = z.object({
  /** The workflow. */
  id: ZId,
  /** The workflow's metadata fields in order; replaces the list. */
  fields: z
    .array(
      z.object({ field_id: ZId, required: z.boolean().optional(), default_value: ZWorkflowValue.optional() }),
    )
    .max(100)
    .refine((list) => new Set(list.map((f) => f.field_id)).size === list.length, 'Give each field once'),
});

export const ZRecipients = z.object({
  users: z.array(
    z.object({ id: z.number().int(), name: z.string(), username: z.string(), email: z.string() }),
  ),
  groups: z.array(z.object({ id: z.number().int(), name: z.string(), member_count: z.number().int() })),
});

export const ZSaveAssigneesBody = z
  .object({
    workflow_step_id: ZId,
    /** Replace the step's assignees with these users and groups. */
    user_ids: z.array(ZId).max(1000).default([]),
    group_ids: z.array(ZId).max(1000).default([]),
  })
  .refine((b) => b.user_ids.length + b.group_ids.length > 0, {
    message: 'Choose at least one user or group',
    path: ['user_ids'],
  });

export const ZSaveNotificationBody = z
  .object({
    id: ZId.optional(),
    workflow_step_id: ZId,
    event: ZStepEvent,
    recipient: ZRecipientKind,
    user_id: ZId.nullable().optional(),
    group_id: ZId.nullable().optional(),
    in_app: z.boolean().default(true),
    email: z.boolean().default(true),
    subject: zLine().trim().max(200).default(''),
    body: zMultiline().trim().max(5000).default(''),
  })
  .superRefine((b, ctx) => {
    if (b.recipient === 'user' && !b.user_id)
      ctx.addIssue({ code: 'custom', path: ['user_id'], message: 'Choose the user to tell' });
    if (b.recipient === 'group' && !b.group_id)
      ctx.addIssue({ code: 'custom', path: ['group_id'], message: 'Choose the group to tell' });
    if (!b.in_app && !b.email)
      ctx.addIssue({ code: 'custom', path: ['in_app'], message: 'Choose in-app, e-mail or both' });
  });

export const ZConditionsOfStepBody = z.object({ step_id: ZId });

const VALUELESS: ReadonlyArray<string> = ['empty', 'not_empty'];

export const ZSaveConditionBody = z
  .object({
    id: ZId.optional(),
    workflow_step_id: ZId,
    mode: ZConditionMode,
    field_id: ZId,
    /** Test the run's workflow metadata rather than the file's metadata. */
    on_workflow_field: z.boolean().default(false),
    operator: ZConditionOperator,
    value: ZConditionValue.optional(),
    /** How this condition joins the one before it (and binds before or). */
    join: ZConditionJoin.default('and'),
    position: z.number().int().min(1).max(1000).optional(),
  })
  .superRefine((b, ctx) => {
    const value = b.value ?? null;
    if (VALUELESS.includes(b.operator)) return;
    if (value === null || value === '')
      ctx.addIssue({ code: 'custom', path: ['value'], message: 'Give the value to compare with' });
    else if (b.operator === 'in_list' && !Array.isArray(value))
      ctx.addIssue({ code: 'custom', path: ['value'], message: 'Give the list of values' });
    else if (b.operator !== 'in_list' && Array.isArray(value))
      ctx.addIssue({ code: 'custom', path: ['value'], message: 'Give one value' });
  });
export type TSaveConditionBody = z.input<typeof ZSaveConditionBody>;

export const ZSaveTriggerBody = z
  .object({
    id: ZId.optional(),
    workflow_step_id: ZId,
    kind: ZTriggerKind,
    field_id: ZId.nullable().optional(),
    /** on_field_change: move only when the field takes this value. */
    value: zLine().trim().max(1000).nullable().optional(),
    /** on_date: a cron expression (five fields), when no date field is given. */
    cron: zCron().nullable().optional(),
    /** Where the trigger sends the file (null: the next step). */
    target_step_id: ZId.nullable().optional(),
    escalate_user_id: ZId.nullable().optional(),
    escalate_group_id: ZId.nullable().optional(),
    active: z.boolean().default(true),
  })
  .superRefine((b, ctx) => {
    if (b.kind === 'on_field_change' && !b.field_id)
      ctx.addIssue({ code: 'custom', path: ['field_id'], message: 'Choose the field to watch' });
    if (b.kind === 'on_date' && !b.field_id && !b.cron)
      ctx.addIssue({ code: 'custom', path: ['field_id'], message: 'Choose a date field or give a schedule' });
    if (b.kind === 'overdue' && !b.escalate_user_id && !b.escalate_group_id)
      ctx.addIssue({
        code: 'custom',
        path: ['escalate_user_id'],
        message: 'Choose the user or group to escalate to',
      });
  });
export type TSaveTriggerBody = z.input<typeof ZSaveTriggerBody>;

export const ZEditStepMetadataBody = z.object({
  workflow_step_id: ZId,
  /** The fields the assignee sees at this step, in order; replaces the list. */
  fields: z
    .array(
      z.object({ field_id: ZId, editable: z.boolean().default(true), required: z.boolean().default(false) }),
    )
    .max(100)
    .refine((list) => new Set(list.map((f) => f.field_id)).size === list.length, 'Give each field once'),
});

export const ZSetDefaultMetadataBody = z.object({
  workflow_step_id: ZId,
  defaults: ZFieldValues,
});
