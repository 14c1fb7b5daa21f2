import { categoryFilesContract, XLSX_MEDIA_TYPE } from '@quire/contract';
import type { Deps } from '../../lib/deps.js';
import { defineRoutes, readsOnly } from '../../lib/route.js';
import { sendGenerated } from '../../lib/send-file.js';
import * as list from './category-files.service.js';

// The category area's file list calls, built with the files (their entries are the
// `categoryFilesContract` part of `contract.category`).
export const categoryFilesModule = (deps: Deps) =>
  defineRoutes('category', categoryFilesContract, {
    fileIncategory: readsOnly(async ({ params, query, auth }) => ({
      data: await list.categoryFiles(deps, auth, params.id, query),
    })),
    fileIncategoryFilter: async ({ params, body, auth }) => ({
      data: await list.categoryFiles(deps, auth, params.id, body),
    }),
    fileIncategoryExport: async ({ params, query, auth, actor, reply }) => {
      const { stream, filename } = await list.exportCategoryFiles(deps, auth, actor, params.id, query);
      return sendGenerated(reply, {
        content: stream,
        mimeType: XLSX_MEDIA_TYPE,
        filename,
      });
    },
  });
