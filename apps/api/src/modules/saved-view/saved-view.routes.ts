import { contract } from '@quire/contract';
import type { Deps } from '../../lib/deps.js';
import { defineRoutes } from '../../lib/route.js';
import * as views from './saved-view.service.js';

export const savedViewModule = (deps: Deps) =>
  defineRoutes('savedView', contract.savedView, {
    listSavedViews: async ({ auth }) => ({ data: await views.listSavedViews(deps, auth) }),
    createSavedView: async ({ auth, actor, body }) => {
      const data = await views.createSavedView(deps, auth, actor, body);
      return { message: `View "${data.name}" saved`, data };
    },
    updateSavedView: async ({ auth, actor, params, body }) => {
      const data = await views.updateSavedView(deps, auth, actor, params.id, body);
      return { message: `View "${data.name}" saved`, data };
    },
    deleteSavedView: async ({ auth, actor, params }) => ({
      message: 'View deleted',
      data: await views.deleteSavedView(deps, auth, actor, params.id),
    }),
  });
