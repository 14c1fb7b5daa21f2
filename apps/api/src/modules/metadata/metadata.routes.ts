import { contract } from '@quire/contract';
import type { Deps } from '../../lib/deps.js';
import { defineRoutes } from '../../lib/route.js';
import { scopeOf } from '../../lib/visibility.js';
import * as fields from './metadata.service.js';

export const metadataModule = (deps: Deps) =>
  defineRoutes('metadata', contract.metadata, {
    userFields: async ({ auth }) => ({ data: await fields.listFields(deps, scopeOf(auth)) }),
    fieldUsers: async () => ({ data: await fields.listFieldUsers(deps) }),
    storeUserField: async ({ auth, actor, body }) => ({
      message: body.id ? 'Metadata field updated' : 'Metadata field created',
      data: await fields.storeField(deps, scopeOf(auth), actor, body),
    }),
    deleteUserField: async ({ params, actor }) => {
      await fields.deleteField(deps, actor, params.id);
      return { message: 'Metadata field deleted', data: null };
    },
  });
