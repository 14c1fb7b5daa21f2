import { contract } from '@quire/contract';
import type { Deps } from '../../lib/deps.js';
import { defineRoutes } from '../../lib/route.js';
import { currentUser } from '../auth/auth.service.js';

export const userModule = (deps: Deps) =>
  defineRoutes('user', contract.user, {
    current: async ({ auth }) => ({ data: await currentUser(deps, auth) }),
  });
