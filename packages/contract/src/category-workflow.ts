import { z } from 'zod';
import { endpoint } from './http.js';
import { ZCategoryWorkflow } from './workflow-run-model.js';

// The category call the workflow area answers (spec §7 "Category"). It joins the category
// area's entries in index.ts (`category: { ...categoryContract, ...categoryWorkflowContract }`).

export const categoryWorkflowContract = {
  foldersWorkflow: endpoint({
    method: 'GET',
    path: '/api/folders/workflow',
    guard: 'signedIn',
    summary: 'The categories the caller may see, each with the workflow that serves it (or null)',
    response: z.array(ZCategoryWorkflow),
  }),
};
