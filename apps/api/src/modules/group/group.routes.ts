import { contract } from '@quire/contract';
import type { Deps } from '../../lib/deps.js';
import { defineRoutes } from '../../lib/route.js';
import * as groups from './group.service.js';

export const groupModule = (deps: Deps) =>
  defineRoutes('group', contract.group, {
    allGroups: async () => ({ data: await groups.listGroups(deps) }),
    createGroup: async ({ body, auth, actor }) => ({
      message: 'Group created',
      data: await groups.createGroup(deps, auth, actor, body),
    }),
    editGroup: async ({ params, body, auth, actor }) => ({
      message: 'Group updated',
      data: await groups.editGroup(deps, auth, actor, params.id, body),
    }),
    deleteGroup: async ({ params, actor }) => {
      await groups.deleteGroup(deps, actor, params.id);
      return { message: 'Group deleted', data: null };
    },
  });
