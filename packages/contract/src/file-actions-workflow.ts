import { endpoint } from './http.js';
import { ZFileWorkflowStage, ZManualTriggerBody } from './workflow-run-model.js';

// The file action the workflow area answers (spec §4 "a workflow stage can be triggered
// manually"). It joins the file-actions entries in index.ts
// (`fileActions: { ...fileActionsContract, ...fileActionsWorkflowContract }`).

export const fileActionsWorkflowContract = {
  manualTriger: endpoint({
    method: 'POST',
    path: '/api/manual-triger',
    guard: 'signedIn',
    summary:
      "An assignee approves or rejects the file's current step (comment, the step's metadata); File Control write moves a stuck file to a step or cancels its run",
    body: ZManualTriggerBody,
    response: ZFileWorkflowStage,
  }),
};
