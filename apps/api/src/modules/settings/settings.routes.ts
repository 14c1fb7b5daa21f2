import { contract } from '@quire/contract';
import type { Deps } from '../../lib/deps.js';
import { defineRoutes } from '../../lib/route.js';
import * as settings from './settings.service.js';

export const settingsModule = (deps: Deps) =>
  defineRoutes('settings', contract.settings, {
    authentication: async () => ({ data: await settings.getProvider(deps) }),
    saveAuthentication: async ({ body, auth, actor }) => ({
      message: 'External authentication saved',
      data: await settings.saveProvider(deps, auth, actor, body),
    }),
    testAuthentication: async ({ body, auth }) => {
      const data = await settings.testProvider(deps, auth, body);
      return { message: `Found ${data.user.dn}`, data };
    },
    deleteAuthentication: async ({ body, auth, actor }) => {
      await settings.deleteProvider(deps, auth, actor, body.id);
      return { message: 'External authentication removed', data: null };
    },
  });
