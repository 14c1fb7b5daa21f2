import { contract } from '@quire/contract';
import type { Deps } from '../../lib/deps.js';
import { defineRoutes } from '../../lib/route.js';
import * as groups from './group.service.js';

export const groupModule = (deps: Deps) =>
  defineRoutes('group', contract.group, {
    allGroups: async () => ({ data: await groups.listGroups(deps) }),
    createGroup: async ({ body, actor }) => ({
      message: 'Group created',
      data: await groups.createGroup(deps, actor, body),
    }),
    editGroup: async ({ params, body, actor }) => ({
      message: 'Group updated',
      data: await groups.editGroup(deps, actor, params.id, body),
    }),
    deleteGroup: async ({ params, actor }) => {
      await groups.deleteGroup(deps, actor, params.id);
      return { message: 'Group deleted', data: null };
    },
  });
