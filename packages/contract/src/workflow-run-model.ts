import { z } from 'zod';
import { ZId, zLine, zMultiline } from './common.js';
import { ZFieldType } from './metadata.js';
import {
  ZConditionJoin,
  ZConditionOperator,
  ZConditionValue,
  ZFieldValues,
  ZRef,
  ZRunAction,
  ZRunStatus,
  ZStepCompletion,
  ZStepField,
  ZTaskStatus,
  ZTransitionKind,
  ZWorkflowStatus,
  ZWorkflowValue,
} from './workflow-model.js';

// A file's run through a workflow (spec §3 "Workflow"): starting one, the tasks assigned, a
// run's transitions and stage, manual triggers and the dry run. The design's shapes are in
// workflow-model.ts.

export const ZInitiateBody = z.object({
  workflow_id: ZId,
  file_ids: z.array(ZId).min(1).max(100),
  /** The workflow metadata the run starts with. */
  values: ZFieldValues.optional(),
});

export const ZInitiated = z.object({
  started: z.array(z.object({ file_id: z.number().int(), instance_id: z.number().int(), step: ZRef })),
});

export const ZCategoryWorkflow = z.object({
  id: z.number().int(),
  name: z.string(),
  parent_id: z.number().int().nullable(),
  workflow: z.object({ id: z.number().int(), name: z.string(), status: ZWorkflowStatus }).nullable(),
});

export const ZAssignedFile = z.object({
  task_id: z.number().int(),
  file_id: z.number().int(),
  file_name: z.string(),
  category: ZRef.nullable(),
  instance_id: z.number().int(),
  workflow: ZRef,
  step: ZRef,
  assigned_at: z.string(),
  due_at: z.string().nullable(),
  overdue: z.boolean(),
  started_by: z.string().nullable(),
});
export type TAssignedFile = z.infer<typeof ZAssignedFile>;

export const ZValueShown = z.object({
  field_id: z.number().int(),
  name: z.string(),
  type: ZFieldType,
  value: ZWorkflowValue,
  /** The value as a person reads it (an item's label, a user's name, a date). */
  display: z.string(),
});

export const ZTransition = z.object({
  id: z.number().int(),
  instance_id: z.number().int(),
  workflow: ZRef,
  kind: ZTransitionKind,
  from_step: ZRef.nullable(),
  to_step: ZRef.nullable(),
  /** null: the system (a trigger or a schedule). */
  acted_by: ZRef.nullable(),
  comment: z.string(),
  values: z.array(ZValueShown),
  created_at: z.string(),
});
export type TTransition = z.infer<typeof ZTransition>;

export const ZRun = z.object({
  instance_id: z.number().int(),
  workflow: ZRef,
  status: ZRunStatus,
  revision: z.number().int(),
  current_step: z
    .object({
      id: z.number().int(),
      name: z.string(),
      position: z.number().int(),
      completion: ZStepCompletion,
      quorum: z.number().int().nullable(),
    })
    .nullable(),
  steps: z.array(z.object({ id: z.number().int(), name: z.string(), position: z.number().int() })),
  /** Who must act in the current step, and what each did. */
  assignees: z.array(z.object({ user_id: z.number().int(), name: z.string(), status: ZTaskStatus })),
  due_at: z.string().nullable(),
  overdue: z.boolean(),
  started_at: z.string(),
  started_by: ZRef.nullable(),
  finished_at: z.string().nullable(),
  /** The run's workflow metadata. */
  values: z.array(ZValueShown),
  /** The current step's form, with the values it would save. */
  form: z.array(ZStepField.extend({ value: ZWorkflowValue })),
  /** The caller has an open task in the current step. */
  can_act: z.boolean(),
  /** The caller may move or cancel the run (File Control write). */
  can_move: z.boolean(),
});
export type TRun = z.infer<typeof ZRun>;

export const ZFileWorkflowStage = z.object({
  file_id: z.number().int(),
  file_name: z.string(),
  /** The running (or else the latest) run; null: the file never ran a workflow. */
  run: ZRun.nullable(),
  /** Every move of every run of the file, newest first. */
  history: z.array(ZTransition),
});
export type TFileWorkflowStage = z.infer<typeof ZFileWorkflowStage>;

export const ZManualTriggerBody = z
  .object({
    file_id: ZId,
    /** The step the caller decides on: a file that has left it answers 409. */
    workflow_step_id: ZId,
    action: ZRunAction,
    comment: zMultiline().trim().max(2000).default(''),
    /** The step's metadata, filled by the assignee. */
    values: ZFieldValues.optional(),
    /** move: the step to put the file in. */
    to_step_id: ZId.optional(),
  })
  .superRefine((b, ctx) => {
    if (b.action === 'move' && !b.to_step_id)
      ctx.addIssue({ code: 'custom', path: ['to_step_id'], message: 'Choose the step to move the file to' });
    if (b.action === 'reject' && !b.comment)
      ctx.addIssue({ code: 'custom', path: ['comment'], message: 'Say why you reject it' });
  });
export type TManualTriggerBody = z.input<typeof ZManualTriggerBody>;

export const ZDryRunBody = z.object({ workflow_id: ZId, file_id: ZId });

export const ZDryRunFilesQuery = z.object({
  workflow_id: ZId,
  search: zLine().trim().max(100).optional(),
});

/** A file a dry run can be tried on. */
export const ZDryRunFile = z.object({ id: z.number().int(), name: z.string(), category: ZRef.nullable() });

export const ZConditionResult = z.object({
  id: z.number().int(),
  field_name: z.string(),
  on_workflow_field: z.boolean(),
  operator: ZConditionOperator,
  expected: ZConditionValue,
  /** The value tested, as a person reads it (null: empty). */
  actual: z.string().nullable(),
  join: ZConditionJoin,
  holds: z.boolean(),
});

const ZConditionSet = z.object({ holds: z.boolean(), conditions: z.array(ZConditionResult) });

export const ZDryRun = z.object({
  file_id: z.number().int(),
  workflow_id: z.number().int(),
  /** The step a run would enter (the step with an active on_index trigger, else the first). */
  entry_step: ZRef.nullable(),
  would_start: z.boolean(),
  /** Why it would or would not start, in words. */
  reason: z.string(),
  steps: z.array(
    z.object({
      id: z.number().int(),
      name: z.string(),
      position: z.number().int(),
      pre: ZConditionSet,
      post: ZConditionSet,
    }),
  ),
});
export type TDryRun = z.infer<typeof ZDryRun>;
