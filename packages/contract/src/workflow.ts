import { z } from 'zod';
import { ZIdParams, ZNull, ZPage, ZPageQuery, zLine } from './common.js';
import { endpoint } from './http.js';
import {
  ZConditionsOfStepBody,
  ZEditStepMetadataBody,
  ZSaveAssigneesBody,
  ZSaveConditionBody,
  ZSaveNotificationBody,
  ZSaveStepBody,
  ZSaveTriggerBody,
  ZSaveWorkflowBody,
  ZSetDefaultMetadataBody,
  ZWorkflowMetadataBody,
} from './workflow-bodies.js';
import {
  ZRecipients,
  ZStep,
  ZStepAssignee,
  ZStepCondition,
  ZStepField,
  ZStepNotification,
  ZStepTrigger,
  ZWorkflow,
  ZWorkflowStatus,
  ZWorkflowSummary,
} from './workflow-model.js';
import {
  ZDryRun,
  ZDryRunBody,
  ZDryRunFile,
  ZDryRunFilesQuery,
  ZInitiateBody,
  ZInitiated,
} from './workflow-run-model.js';

// Workflows (spec §7 "Workflow"): the design is File Control's (read: the Auditor too; write:
// File Control Admin and Company Admin, signed in as admin); starting a run takes edit rights
// on each file. Step details are read by step id (`{id}` of a get_* call is the step's) and
// deleted by their own id.

const read = { area: 'fileControl', access: 'read' } as const;
const write = { area: 'fileControl', access: 'write' } as const;

export const ZWorkflowIndexQuery = ZPageQuery(20).extend({
  search: zLine().trim().max(100).optional(),
  status: ZWorkflowStatus.optional(),
});

export const workflowContract = {
  initiateWorkflow: endpoint({
    method: 'POST',
    path: '/api/initiate-workflow',
    guard: 'signedIn',
    object: { file: 'edit', from: 'body.file_ids' },
    summary:
      'Start an active workflow on files (all or none): each enters the entry step if its PRE conditions hold; a file runs one workflow at a time; a workflow that serves categories starts only on their files',
    body: ZInitiateBody,
    response: ZInitiated,
  }),
  workflows: endpoint({
    method: 'GET',
    path: '/api/workflows',
    guard: 'signedIn',
    summary: 'The active workflows a file can be started on, by name',
    response: z.array(ZWorkflowSummary),
  }),
  workflowIndex: endpoint({
    method: 'GET',
    path: '/api/workflow/index',
    guard: read,
    summary: 'Every workflow (drafts too), paged, by name; `search` in the name, `status` filter',
    query: ZWorkflowIndexQuery,
    response: ZPage(ZWorkflowSummary),
  }),
  viewWorkflow: endpoint({
    method: 'GET',
    path: '/api/view_workflow/{id}',
    guard: read,
    summary: 'A workflow with its categories, metadata and steps in order, each with its details',
    params: ZIdParams,
    response: ZWorkflow,
  }),
  getStep: endpoint({
    method: 'GET',
    path: '/api/get_step/{id}',
    guard: read,
    summary: 'A step with its assignees, notifications, conditions, triggers and metadata',
    params: ZIdParams,
    response: ZStep,
  }),
  createAndUpdateWorkflow: endpoint({
    method: 'POST',
    path: '/api/create_and_update_workflow',
    guard: write,
    summary: 'Create a workflow, or update the one `id` names (name, description, draft/active, categories)',
    body: ZSaveWorkflowBody,
    response: ZWorkflow,
  }),
  deleteWorkflow: endpoint({
    method: 'DELETE',
    path: '/api/del_workflow/{id}',
    guard: write,
    summary: 'Delete a workflow; refused while files run through it (the message says how many)',
    params: ZIdParams,
    response: ZNull,
  }),
  createUpdateWorkflowStep: endpoint({
    method: 'POST',
    path: '/api/create_update_workflow_step',
    guard: write,
    summary:
      'Create a step, or update the one `id` names; `position` moves it (the others shift); changes apply to files that enter it later',
    body: ZSaveStepBody,
    response: ZStep,
  }),
  deleteStep: endpoint({
    method: 'DELETE',
    path: '/api/workflow/del_step/{id}',
    guard: write,
    summary: 'Delete a step; refused while files run through its workflow (the message says how many)',
    params: ZIdParams,
    response: ZNull,
  }),
  createUpdateMetadata: endpoint({
    method: 'POST',
    path: '/api/workflow/create_update_metadata',
    guard: write,
    summary: 'Set the workflow metadata: the fields a file carries through the whole run, in order',
    body: ZWorkflowMetadataBody,
    response: ZWorkflow,
  }),
  getRecipient: endpoint({
    method: 'GET',
    path: '/api/get_recipient',
    guard: read,
    summary: 'The active users and the groups a step can be assigned to or notify',
    response: ZRecipients,
  }),
  getNotification: endpoint({
    method: 'GET',
    path: '/api/get_notification/{id}',
    guard: read,
    summary: 'The notifications of a step (`id`: the step)',
    params: ZIdParams,
    response: z.array(ZStepNotification),
  }),
  updateNotification: endpoint({
    method: 'POST',
    path: '/api/update_notification',
    guard: write,
    summary:
      'Add a notification to a step, or update the one `id` names: who hears of which event, in-app and/or by e-mail',
    body: ZSaveNotificationBody,
    response: ZStepNotification,
  }),
  deleteNotification: endpoint({
    method: 'DELETE',
    path: '/api/del_notification/{id}',
    guard: write,
    summary: 'Delete a notification; refused while files wait in its step',
    params: ZIdParams,
    response: ZNull,
  }),
  getCondition: endpoint({
    method: 'POST',
    path: '/api/get_condition',
    guard: read,
    reads: true,
    summary: 'The PRE conditions of a step (must hold to enter it), in order',
    body: ZConditionsOfStepBody,
    response: z.array(ZStepCondition),
  }),
  getConditionPost: endpoint({
    method: 'POST',
    path: '/api/get_condition_post',
    guard: read,
    reads: true,
    summary: 'The POST conditions of a step (must hold to approve it), in order',
    body: ZConditionsOfStepBody,
    response: z.array(ZStepCondition),
  }),
  updateCondition: endpoint({
    method: 'POST',
    path: '/api/update_condition',
    guard: write,
    summary: 'Add a PRE or POST condition to a step, or update the one `id` names',
    body: ZSaveConditionBody,
    response: ZStepCondition,
  }),
  deleteCondition: endpoint({
    method: 'DELETE',
    path: '/api/del_condition/{id}',
    guard: write,
    summary: 'Delete a condition; refused while files wait in its step',
    params: ZIdParams,
    response: ZNull,
  }),
  getTrigger: endpoint({
    method: 'GET',
    path: '/api/get_trigger/{id}',
    guard: read,
    summary: 'The triggers of a step (`id`: the step)',
    params: ZIdParams,
    response: z.array(ZStepTrigger),
  }),
  updateTrigger: endpoint({
    method: 'POST',
    path: '/api/update_trigger',
    guard: write,
    summary:
      'Add a trigger to a step, or update the one `id` names: file indexed, value changed, date reached, overdue (escalation)',
    body: ZSaveTriggerBody,
    response: ZStepTrigger,
  }),
  deleteTrigger: endpoint({
    method: 'DELETE',
    path: '/api/del_trigger/{id}',
    guard: write,
    summary: 'Delete a trigger; refused while files wait in its step',
    params: ZIdParams,
    response: ZNull,
  }),
  getAssignee: endpoint({
    method: 'GET',
    path: '/api/get_assignee/{id}',
    guard: read,
    summary: 'The users and groups who act in a step (`id`: the step)',
    params: ZIdParams,
    response: z.array(ZStepAssignee),
  }),
  updateAssignee: endpoint({
    method: 'POST',
    path: '/api/update_assignee',
    guard: write,
    summary: 'Set who acts in a step (users and groups); files already in the step keep their assignees',
    body: ZSaveAssigneesBody,
    response: z.array(ZStepAssignee),
  }),
  deleteAssignee: endpoint({
    method: 'DELETE',
    path: '/api/del_assignee/{id}',
    guard: write,
    summary: 'Remove one assignee; refused while files wait in its step',
    params: ZIdParams,
    response: ZNull,
  }),
  getStepMetadata: endpoint({
    method: 'GET',
    path: '/api/get_step_metadata/{id}',
    guard: read,
    summary: 'The fields the assignee fills at a step (`id`: the step), with defaults',
    params: ZIdParams,
    response: z.array(ZStepField),
  }),
  editStepMetadata: endpoint({
    method: 'POST',
    path: '/api/workflow/step/edit_metadata',
    guard: write,
    summary:
      'Set the fields of a step, in order (editable, required); defaults are kept for fields that stay',
    body: ZEditStepMetadataBody,
    response: z.array(ZStepField),
  }),
  setDefaultMetadata: endpoint({
    method: 'POST',
    path: '/api/workflow/step/set_default_metadata',
    guard: write,
    summary: "Set the default values of a step's fields",
    body: ZSetDefaultMetadataBody,
    response: z.array(ZStepField),
  }),
  dryRun: endpoint({
    method: 'POST',
    path: '/api/workflow/dry_run',
    guard: read,
    object: { file: 'view', from: 'body.file_id' },
    extension: true,
    summary:
      'Without starting anything: the step a file would enter and which conditions of each step hold or fail for it (drafts too)',
    body: ZDryRunBody,
    response: ZDryRun,
  }),
  dryRunFiles: endpoint({
    method: 'GET',
    path: '/api/workflow/dry_run/files',
    guard: read,
    extension: true,
    summary:
      'Files to try a dry run on: those the caller sees in the categories the workflow serves (all, when it serves none), newest first, `search` in the name; at most 50',
    query: ZDryRunFilesQuery,
    response: z.array(ZDryRunFile),
  }),
};
