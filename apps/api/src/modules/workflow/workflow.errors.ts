import {
  type AppError,
  badField,
  createError,
  type FieldError,
  forbidden,
  invalidInput,
  nameTaken,
  notFound,
} from '../../lib/errors.js';

export const workflowNotFound = () => notFound('Workflow');
export const stepNotFound = () => notFound('Step');
export const assigneeNotFound = () => notFound('Assignee');
export const notificationNotFound = () => notFound('Notification');
export const conditionNotFound = () => notFound('Condition');
export const triggerNotFound = () => notFound('Trigger');

const files = (n: number) => (n === 1 ? '1 file is' : `${n} files are`);

/** Deleting what running files use: the message says how many. */
export const workflowInUse = createError({
  code: 'workflow.in_use',
  statusCode: 409,
  message: (n: number) =>
    `${files(n)} running through this workflow. Let them finish, or move them out, before deleting it.`,
});

export const stepInUse = createError({
  code: 'workflow.step_in_use',
  statusCode: 409,
  message: (n: number) =>
    `${files(n)} running through this step's workflow. Let them finish, or move them out, before deleting the step.`,
});

export const detailInUse = createError({
  code: 'workflow.detail_in_use',
  statusCode: 409,
  message: (what: string, n: number) =>
    `${files(n)} waiting in this step and still use its ${what}. Change it instead, or delete it once they have moved on.`,
});

export const workflowNameTaken = nameTaken('workflow');

export const badFields = (errors: FieldError[]): AppError =>
  invalidInput(errors[0]?.message ?? 'Invalid input', errors);

export const workflowNotActive = (name: string) =>
  invalidInput(`"${name}" is a draft: activate it before starting it on files`, [
    { path: 'body.workflow_id', message: 'This workflow is a draft' },
  ]);

export const workflowHasNoSteps = (name: string) =>
  invalidInput(`"${name}" has no steps yet`, [
    { path: 'body.workflow_id', message: 'This workflow has no steps' },
  ]);

/** A workflow that serves categories starts only on files of those categories (all or none). */
export const categoryNotServed = (workflowName: string, fileNames: string[]) => {
  const names = fileNames.map((n) => `"${n}"`).join(', ');
  const message = `"${workflowName}" runs only on files of the categories it serves: ${names} ${fileNames.length === 1 ? 'is' : 'are'} in another category. Nothing was started.`;
  return badField('body.file_ids', message);
};

export const alreadyRunning = createError({
  code: 'workflow.already_running',
  statusCode: 409,
  message: (fileName: string) => `"${fileName}" is already running a workflow; a file runs one at a time.`,
});

export const conditionsFail = createError({
  code: 'workflow.conditions_fail',
  statusCode: 409,
  message: (fileName: string, stepName: string, failed: string) =>
    `"${fileName}" cannot enter "${stepName}": ${failed}.`,
});

export const postConditionsFail = createError({
  code: 'workflow.post_conditions_fail',
  statusCode: 409,
  message: (stepName: string, failed: string) => `"${stepName}" cannot be approved yet: ${failed}.`,
});

export const noRunningWorkflow = createError({
  code: 'workflow.not_running',
  statusCode: 409,
  message: 'This file is not running a workflow.',
});

/** Someone else moved the file first (the conditional update found another state). */
export const movedOn = createError({
  code: 'workflow.moved_on',
  statusCode: 409,
  message: (stepName: string) => `The file has already left "${stepName}". Reload to see where it is now.`,
});

export const alreadyDecided = createError({
  code: 'workflow.already_decided',
  statusCode: 409,
  message: 'You have already decided on this step.',
});

export const notAssigned = () => forbidden('act on this step: it is not assigned to you');
export const auditorReadsOnly = () => forbidden('change workflows or their runs: the Auditor reads only');
export const mayNotMove = () => forbidden('move or cancel a run: that takes File Control write access');

/** A file in a run is changed only by the assignees of its current step (and File Control writers). */
export const stepHoldsFile = createError({
  code: 'workflow.step_holds_file',
  statusCode: 403,
  message: (fileName: string, stepName: string) =>
    `"${fileName}" is in the workflow step "${stepName}": only that step's assignees may change it now.`,
});
