import { BACKGROUND_MAX_BYTES, contract, LOGO_MAX_BYTES } from '@quire/contract';
import type { Deps } from '../../lib/deps.js';
import { defineRoutes } from '../../lib/route.js';
import { sendBlob } from '../../lib/send-file.js';
import * as setup from './setup.service.js';

// Per signed-in user: one account cannot fill the disk with attempts.
const uploadLimit = {
  max: 20,
  timeWindow: '1 minute',
  keyGenerator: (req: { auth: { userId: number } | null; ip: string }) =>
    `user:${req.auth?.userId ?? req.ip}`,
};

export const setupModule = (deps: Deps) =>
  defineRoutes('setup', contract.setup, {
    getLogoAndExpiryDate: async () => ({ data: await setup.branding(deps) }),
    companyDetails: async () => ({ data: await setup.companyDetails(deps) }),
    updateCompanyDetails: async ({ actor, body }) => ({
      message: 'Company details saved',
      data: await setup.updateCompanyDetails(deps, actor, body),
    }),
    uploadLogo: {
      maxUploadBytes: LOGO_MAX_BYTES,
      rateLimit: uploadLimit,
      handler: async ({ files, actor }) => {
        for await (const file of files)
          return { message: 'Logo uploaded', data: await setup.setImage(deps, actor, 'logo', file.stream) };
        throw new Error('unreachable: the pipeline refuses an upload without its file');
      },
    },
    uploadBackground: {
      maxUploadBytes: BACKGROUND_MAX_BYTES,
      rateLimit: uploadLimit,
      handler: async ({ files, actor }) => {
        for await (const file of files)
          return {
            message: 'Background uploaded',
            data: await setup.setImage(deps, actor, 'background', file.stream),
          };
        throw new Error('unreachable: the pipeline refuses an upload without its file');
      },
    },
    removeLogo: async ({ actor }) => {
      await setup.removeImage(deps, actor, 'logo');
      return { message: 'Logo removed', data: null };
    },
    removeBackground: async ({ actor }) => {
      await setup.removeImage(deps, actor, 'background');
      return { message: 'Background removed', data: null };
    },
    logo: async ({ query, req, reply }) =>
      sendBlob(deps.blobs, req, reply, {
        ...(await setup.readImage(deps, 'logo', query.v)),
        disposition: 'inline',
      }),
    background: async ({ query, req, reply }) =>
      sendBlob(deps.blobs, req, reply, {
        ...(await setup.readImage(deps, 'background', query.v)),
        disposition: 'inline',
      }),
  });
