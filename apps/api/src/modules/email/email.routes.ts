import { contract } from '@quire/contract';
import type { Deps } from '../../lib/deps.js';
import { defineRoutes } from '../../lib/route.js';
import * as email from './email.service.js';

export const emailModule = (deps: Deps) => {
  return defineRoutes('email', contract.email, {
    setup: async () => ({ data: await email.getSetup(deps) }),
    saveSetup: async ({ body, actor }) => ({
      message: 'E-mail settings saved',
      data: await email.saveSetup(deps, body, actor),
    }),
    test: async ({ body, actor }) => ({
      message: `Test e-mail sent to ${body.to}`,
      data: await email.sendTest(deps, body.to, actor),
    }),
    notifications: async ({ query }) => ({ data: await email.listQueue(deps, query) }),
    deleteJob: async ({ params, actor }) => {
      await email.deleteJob(deps, params.id, actor);
      return { message: 'Mail job deleted', data: null };
    },
  });
};
