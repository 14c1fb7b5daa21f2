import { contract, XLSX_MEDIA_TYPE } from '@quire/contract';
import type { Deps } from '../../lib/deps.js';
import { defineRoutes } from '../../lib/route.js';
import { contentDisposition } from '../../lib/send-file.js';
import * as service from './audit.service.js';

export const auditModule = (deps: Deps) =>
  defineRoutes('audit', contract.audit, {
    activity: async ({ query }) => ({ data: await service.activity(deps, query) }),
    chainStatus: async () => ({ data: await service.chainStatus(deps) }),
    verifyChain: async () => ({
      message: 'The chain is being verified',
      data: await service.requestVerification(deps),
    }),
    exportActivity: async ({ query, actor, reply }) => {
      const stream = await service.exportActivity(deps, actor, query);
      const day = deps.now().toISOString().slice(0, 10);
      return reply
        .header('content-type', XLSX_MEDIA_TYPE)
        .header('content-disposition', contentDisposition('attachment', `audit-trail-${day}.xlsx`))
        .header('cache-control', 'no-store')
        .send(stream);
    },
  });
