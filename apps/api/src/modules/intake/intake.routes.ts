import { contract } from '@quire/contract';
import type { Deps } from '../../lib/deps.js';
import { defineRoutes } from '../../lib/route.js';
import { testInbox } from './imap/imap.service.js';
import * as arrivals from './intake-arrivals.service.js';
import * as rules from './intake-rules.service.js';
import * as sources from './intake-sources.service.js';

export const intakeModule = (deps: Deps) =>
  defineRoutes('intake', contract.intake, {
    listIntakeSources: async () => ({ data: { items: await sources.listSources(deps) } }),
    createIntakeSource: async ({ actor, body }) => {
      const data = await sources.createSource(deps, actor, body);
      return { message: `Intake source "${data.name}" added`, data };
    },
    updateIntakeSource: async ({ actor, params, body }) => {
      const data = await sources.updateSource(deps, actor, params.id, body);
      return { message: `Intake source "${data.name}" saved`, data };
    },
    deleteIntakeSource: async ({ actor, params }) => ({
      message: 'Intake source removed',
      data: await sources.deleteSource(deps, actor, params.id),
    }),
    listIntakeRules: async () => ({ data: { items: await rules.listRules(deps) } }),
    createIntakeRule: async ({ actor, body }) => {
      const data = await rules.createRule(deps, actor, body);
      return { message: `Intake rule "${data.name}" added`, data };
    },
    updateIntakeRule: async ({ actor, params, body }) => {
      const data = await rules.updateRule(deps, actor, params.id, body);
      return { message: `Intake rule "${data.name}" saved`, data };
    },
    deleteIntakeRule: async ({ actor, params }) => ({
      message: 'Intake rule removed',
      data: await rules.deleteRule(deps, actor, params.id),
    }),
    reorderIntakeRules: async ({ actor, body }) => ({
      message: 'Intake rules reordered',
      data: { items: await rules.reorderRules(deps, actor, body.ids) },
    }),
    dryRunIntakeRules: async ({ query }) => ({ data: { items: await rules.dryRun(deps, query.rule_id) } }),
    listIntakeArrivals: async ({ query }) => ({ data: await arrivals.listArrivals(deps, query) }),
    testIntakeInbox: async ({ actor, body }) => ({
      message: 'The inbox answered',
      data: await testInbox(deps, actor, body),
    }),
    retryIntakeArrival: async ({ actor, params }) => ({
      message: 'It will be taken again on the next look',
      data: await arrivals.retryArrival(deps, actor, params.id),
    }),
  });
