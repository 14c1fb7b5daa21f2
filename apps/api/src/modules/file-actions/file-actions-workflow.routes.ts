import { fileActionsWorkflowContract } from '@quire/contract';
import type { Deps } from '../../lib/deps.js';
import { defineRoutes } from '../../lib/route.js';
import * as runs from '../workflow/run.service.js';

// The file-actions area's workflow call (contract: file-actions-workflow.ts): approve,
// reject, move or cancel a file's run, carried out by the workflow area's engine.
const DONE = {
  approve: 'Step approved',
  reject: 'Step rejected',
  move: 'File moved',
  cancel: 'Run cancelled',
} as const;

export const fileActionsWorkflowModule = (deps: Deps) =>
  defineRoutes('fileActions', fileActionsWorkflowContract, {
    manualTriger: async ({ auth, actor, body }) => ({
      message: DONE[body.action],
      data: await runs.manualTrigger(deps, auth, actor, body),
    }),
  });
