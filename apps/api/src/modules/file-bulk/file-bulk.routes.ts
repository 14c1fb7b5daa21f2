import { fileBulkContract } from '@quire/contract';
import type { Deps } from '../../lib/deps.js';
import { defineRoutes } from '../../lib/route.js';
import { sendGenerated } from '../../lib/send-file.js';
import * as bulk from './file-bulk.service.js';

// The calls on many files at once (the `fileBulkContract` area `contract.fileBulk`).
export const fileBulkModule = (deps: Deps) =>
  defineRoutes('fileBulk', fileBulkContract, {
    bulkMove: async ({ body, auth, actor }) => {
      const data = await bulk.bulkMove(deps, auth, actor, body);
      return { message: data.moved === 1 ? 'File moved' : `${data.moved} files moved`, data };
    },
    bulkFollow: async ({ body, auth, actor }) => {
      const data = await bulk.bulkFollow(deps, auth, actor, body.file_ids);
      return { message: `You follow ${body.file_ids.length === 1 ? 'this file' : 'these files'}`, data };
    },
    downloadZip: async ({ body, auth, actor, reply }) => {
      const { stream, filename } = await bulk.downloadZip(deps, auth, actor, body.file_ids);
      return sendGenerated(reply, { content: stream, mimeType: 'application/zip', filename });
    },
    downloadPdf: async ({ body, auth, actor, reply }) => {
      const { content, filename } = await bulk.downloadPdf(deps, auth, actor, body.file_ids);
      return sendGenerated(reply, { content, mimeType: 'application/pdf', filename });
    },
  });
