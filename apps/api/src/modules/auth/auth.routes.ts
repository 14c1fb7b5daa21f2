import { contract } from '@quire/contract';
import type { Deps } from '../../lib/deps.js';
import { defineRoutes } from '../../lib/route.js';
import * as auth from './auth.service.js';

export const authModule = (deps: Deps) =>
  defineRoutes('auth', contract.auth, {
    login: {
      rateLimit: {
        max: deps.config.LOGIN_RATE_LIMIT,
        timeWindow: '1 minute',
        keyGenerator: (req) => `${req.ip}|${String((req.body as { username?: unknown })?.username ?? '').toLowerCase()}`,
      },
      handler: async ({ body, req }) => ({
        message: 'Login successful',
        data: await auth.login(deps, body, { ip: req.ip, userAgent: req.headers['user-agent'] }),
      }),
    },
    logout: async ({ auth: session, actor }) => {
      await auth.logout(deps, session, actor);
      return { message: 'You have been signed out', data: null };
    },
    checkSession: async ({ auth: session }) => ({ data: await auth.sessionState(deps, session) }),
    currentUser: async ({ auth: session }) => ({ data: await auth.currentUser(deps, session) }),
  });
