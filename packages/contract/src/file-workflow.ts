import { ZIdParams, ZPage, ZPageQuery } from './common.js';
import { endpoint } from './http.js';
import { ZAssignedFile, ZFileWorkflowStage } from './workflow-run-model.js';

// The file calls the workflow area answers (spec §7 "File"). They join the file area's
// entries in index.ts (`file: { ...fileContract, ...fileWorkflowContract }`).

export const fileWorkflowContract = {
  assignedFiles: endpoint({
    method: 'GET',
    path: '/api/assigned-files',
    guard: 'signedIn',
    summary: 'The files waiting on the caller (directly or through a group), oldest due first, paged (20)',
    query: ZPageQuery(20),
    response: ZPage(ZAssignedFile),
  }),
  folderWorkflowStage: endpoint({
    method: 'GET',
    path: '/api/folder-workflow-stage/{id}',
    guard: 'signedIn',
    summary:
      "A file's workflow: its run (current step, assignees, due time, the step's form) and the history of every run; for those who see the file or act on it",
    params: ZIdParams,
    response: ZFileWorkflowStage,
  }),
};
