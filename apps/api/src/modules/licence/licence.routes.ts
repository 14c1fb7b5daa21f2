import { contract } from '@quire/contract';
import type { Deps } from '../../lib/deps.js';
import { defineRoutes } from '../../lib/route.js';
import * as licence from './licence.service.js';

export const licenceModule = (deps: Deps) =>
  defineRoutes('licence', contract.licence, {
    state: async () => ({ data: await licence.licenceState(deps) }),
    status: async () => ({ data: await licence.licenceState(deps) }),
    install: async ({ body, actor }) => ({
      message: 'Licence installed',
      data: await licence.installLicence(deps, body.licence, actor),
    }),
  });
