import { contract } from '@quire/contract';
import type { Deps } from '../../lib/deps.js';
import { defineRoutes } from '../../lib/route.js';
import * as trash from './trash.service.js';

export const trashModule = (deps: Deps) =>
  defineRoutes('trash', contract.trash, {
    trash: async ({ query }) => ({ data: await trash.listTrash(deps, query) }),
    trashFileView: async ({ params, auth }) => ({ data: await trash.viewTrashFile(deps, auth, params.id) }),
    restoreTrashFile: async ({ params, body, actor }) => ({
      message: 'File restored',
      data: await trash.restoreFile(deps, actor, params.id, body.folder_id),
    }),
    deleteTrashFile: async ({ params, actor }) => {
      await trash.purgeFile(deps, actor, params.id);
      return { message: 'File deleted for good', data: null };
    },
    myDeletedFiles: async ({ query, auth }) => ({ data: await trash.listMyDeleted(deps, auth, query) }),
    restoreMyDeletedFile: async ({ params, body, auth, actor }) => ({
      message: 'File restored',
      data: await trash.restoreMyDeleted(deps, auth, actor, params.id, body.folder_id),
    }),
  });
