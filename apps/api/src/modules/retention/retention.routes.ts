import { contract } from '@quire/contract';
import type { Deps } from '../../lib/deps.js';
import { defineRoutes } from '../../lib/route.js';
import * as dispositions from './disposition.service.js';
import * as retention from './retention.service.js';

export const retentionModule = (deps: Deps) =>
  defineRoutes('retention', contract.retention, {
    listRetentionRules: async () => ({ data: await retention.listRules(deps) }),
    categoryRetention: async ({ params }) => ({ data: await retention.categoryRetention(deps, params.id) }),
    setRetentionRule: async ({ actor, params, body }) => {
      const data = await retention.setRule(deps, actor, params.id, body);
      return { message: `Retention rule of "${data.category.name}" saved`, data };
    },
    deleteRetentionRule: async ({ actor, params }) => ({
      message: 'Retention rule removed',
      data: await retention.deleteRule(deps, actor, params.id),
    }),
    listLegalHolds: async ({ query }) => ({ data: await retention.listHolds(deps, query) }),
    createLegalHold: async ({ auth, actor, body }) => {
      const data = await retention.createHold(deps, auth, actor, body);
      return { message: `"${data.target_name}" is on legal hold`, data };
    },
    releaseLegalHold: async ({ auth, actor, params, body }) => {
      const data = await retention.releaseHold(deps, auth, actor, params.id, body.reason);
      return { message: `Legal hold on "${data.target_name}" released`, data };
    },
    listDispositions: async ({ query }) => ({ data: await dispositions.listDispositions(deps, query) }),
    scanDispositions: async ({ actor }) => {
      const data = await dispositions.scanDue(deps, actor);
      return { message: `${data.listed} file${data.listed === 1 ? '' : 's'} newly due`, data };
    },
    decideDispositions: async ({ auth, actor, body }) => {
      const data = await dispositions.decideDispositions(deps, auth, actor, body);
      const n = data.items.length;
      return {
        message: `${n} disposition${n === 1 ? '' : 's'} ${body.decision === 'approve' ? 'approved' : 'postponed'}`,
        data,
      };
    },
  });
