import { workflowContract } from '@quire/contract';
import type { Deps } from '../../lib/deps.js';
import { defineRoutes } from '../../lib/route.js';
import * as design from './design.service.js';
import * as designSteps from './design-steps.service.js';
import * as runs from './run.service.js';
import * as views from './run-views.service.js';
import * as details from './step-details.service.js';
import * as stepRules from './step-rules.service.js';

// The workflow area's calls. The workflow calls the spec files under the category, file and
// file-actions areas are registered by those areas (`*-workflow.routes.ts`).

export const workflowModule = (deps: Deps) =>
  defineRoutes('workflow', workflowContract, {
    initiateWorkflow: async ({ body, auth, actor }) => ({
      message: 'Workflow started',
      data: await runs.initiate(deps, auth, actor, body),
    }),
    workflows: async ({ auth }) => ({ data: await design.listActiveWorkflows(deps, auth) }),
    workflowIndex: async ({ query }) => ({ data: await design.pageWorkflows(deps, query) }),
    viewWorkflow: async ({ params }) => ({ data: await design.getWorkflow(deps, params.id) }),
    getStep: async ({ params }) => ({ data: await designSteps.getStep(deps, params.id) }),
    createAndUpdateWorkflow: async ({ body, actor }) => ({
      message: body.id ? 'Workflow updated' : 'Workflow created',
      data: await design.saveWorkflow(deps, actor, body),
    }),
    deleteWorkflow: async ({ params, actor }) => {
      await design.deleteWorkflow(deps, actor, params.id);
      return { message: 'Workflow deleted', data: null };
    },
    createUpdateWorkflowStep: async ({ body, actor }) => ({
      message: body.id ? 'Step updated' : 'Step created',
      data: await designSteps.saveStep(deps, actor, body),
    }),
    deleteStep: async ({ params, actor }) => {
      await designSteps.deleteStep(deps, actor, params.id);
      return { message: 'Step deleted', data: null };
    },
    createUpdateMetadata: async ({ body, actor }) => ({
      message: 'Workflow metadata saved',
      data: await design.saveWorkflowMetadata(deps, actor, body),
    }),
    getRecipient: async () => ({ data: await design.recipients(deps) }),
    getNotification: async ({ params }) => ({ data: await details.listNotifications(deps, params.id) }),
    updateNotification: async ({ body, actor }) => ({
      message: 'Notification saved',
      data: await details.saveNotification(deps, actor, body),
    }),
    deleteNotification: async ({ params, actor }) => {
      await details.deleteNotification(deps, actor, params.id);
      return { message: 'Notification deleted', data: null };
    },
    getCondition: async ({ body }) => ({ data: await stepRules.listConditions(deps, body.step_id, 'PRE') }),
    getConditionPost: async ({ body }) => ({
      data: await stepRules.listConditions(deps, body.step_id, 'POST'),
    }),
    updateCondition: async ({ body, actor }) => ({
      message: 'Condition saved',
      data: await stepRules.saveCondition(deps, actor, body),
    }),
    deleteCondition: async ({ params, actor }) => {
      await stepRules.deleteCondition(deps, actor, params.id);
      return { message: 'Condition deleted', data: null };
    },
    getTrigger: async ({ params }) => ({ data: await stepRules.listTriggers(deps, params.id) }),
    updateTrigger: async ({ body, actor }) => ({
      message: 'Trigger saved',
      data: await stepRules.saveTrigger(deps, actor, body),
    }),
    deleteTrigger: async ({ params, actor }) => {
      await stepRules.deleteTrigger(deps, actor, params.id);
      return { message: 'Trigger deleted', data: null };
    },
    getAssignee: async ({ params }) => ({ data: await details.listAssignees(deps, params.id) }),
    updateAssignee: async ({ body, actor }) => ({
      message: 'Assignees saved',
      data: await details.saveAssignees(deps, actor, body),
    }),
    deleteAssignee: async ({ params, actor }) => {
      await details.deleteAssignee(deps, actor, params.id);
      return { message: 'Assignee removed', data: null };
    },
    getStepMetadata: async ({ params }) => ({ data: await details.listStepFields(deps, params.id) }),
    editStepMetadata: async ({ body, actor }) => ({
      message: 'Step metadata saved',
      data: await details.editStepFields(deps, actor, body),
    }),
    setDefaultMetadata: async ({ body, actor }) => ({
      message: 'Default values saved',
      data: await details.setStepDefaults(deps, actor, body),
    }),
    dryRun: async ({ body }) => ({ data: await views.dryRun(deps, body) }),
    dryRunFiles: async ({ auth, query }) => ({ data: await views.dryRunFiles(deps, auth, query) }),
  });
