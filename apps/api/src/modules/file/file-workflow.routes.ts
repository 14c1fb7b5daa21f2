import { fileWorkflowContract } from '@quire/contract';
import type { Deps } from '../../lib/deps.js';
import { defineRoutes } from '../../lib/route.js';
import * as views from '../workflow/run-views.service.js';

// The file area's workflow calls (contract: file-workflow.ts): the caller's assigned files and
// a file's stage, answered by the workflow area's views.
export const fileWorkflowModule = (deps: Deps) =>
  defineRoutes('file', fileWorkflowContract, {
    assignedFiles: async ({ auth, query }) => ({ data: await views.assigned(deps, auth, query) }),
    folderWorkflowStage: async ({ auth, params }) => ({ data: await views.stage(deps, auth, params.id) }),
  });
