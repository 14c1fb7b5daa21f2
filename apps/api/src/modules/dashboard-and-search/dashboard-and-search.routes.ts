import { contract } from '@quire/contract';
import type { Deps } from '../../lib/deps.js';
import { defineRoutes, readsOnly } from '../../lib/route.js';
import { requestRecognition, textStatus } from './extraction.service.js';
import * as search from './search.service.js';
import { textMarks } from './text-marks.service.js';

export const dashboardAndSearchModule = (deps: Deps) =>
  defineRoutes('dashboardAndSearch', contract.dashboardAndSearch, {
    // The lists, searches and filters only read: each may start ahead of its session's read.
    dashboardTable: readsOnly(async ({ query, auth }) => ({
      data: await search.dashboard(deps, auth, query),
    })),
    allSearchFiles: readsOnly(async ({ query, auth }) => ({
      data: await search.searchFiles(deps, auth, query),
    })),
    searchFiles: readsOnly(async ({ query, auth }) => ({
      data: await search.searchFiles(deps, auth, query),
    })),
    filterAttributes: readsOnly(async ({ auth }) => ({ data: await search.filterAttributes(deps, auth) })),
    filterFiles: readsOnly(async ({ query, body, auth }) => ({
      data: await search.filterFiles(deps, auth, body, query),
    })),
    textStatus: async ({ params }) => ({ data: await textStatus(deps, params.id) }),
    textMarks: async ({ params, query }) => ({
      data: await textMarks(deps, params.id, query.page, query.words),
    }),
    recognizeText: async ({ params, actor }) => ({
      message: 'Text recognition will run again in a moment',
      data: await requestRecognition(deps, actor, params.id),
    }),
  });
