import { categoryWorkflowContract } from '@quire/contract';
import type { Deps } from '../../lib/deps.js';
import { defineRoutes } from '../../lib/route.js';
import * as views from '../workflow/run-views.service.js';

// The category area's workflow call (contract: category-workflow.ts): the categories a
// workflow serves that the caller sees, answered by the workflow area's views.
export const categoryWorkflowModule = (deps: Deps) =>
  defineRoutes('category', categoryWorkflowContract, {
    foldersWorkflow: async ({ auth }) => ({ data: await views.foldersWithWorkflows(deps, auth) }),
  });
