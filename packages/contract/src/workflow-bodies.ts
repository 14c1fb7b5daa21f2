import { z } from 'zod';
import { ZId, ZText, zLine, zMultiline } from './common.js';
import { zCron } from './cron.js';
import {
  ZConditionJoin,
  ZConditionMode,
  ZConditionOperator,
  ZConditionValue,
  ZFieldValues,
  ZRecipientKind,
  ZStepCompletion,
  ZStepEvent,
  ZStepRoute,
  ZTriggerKind,
  ZWorkflowStatus,
  ZWorkflowValue,
} from './workflow-model.js';

// The bodies of the workflow design's calls (workflow.ts): saving a workflow, a step and
// each of its details (assignees, notifications, conditions, triggers, metadata). The words
// they check against and the shapes they answer with are workflow-model.ts.

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
