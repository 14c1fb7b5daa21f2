import { previewContract } from '@quire/contract';
import type { Deps } from '../../lib/deps.js';
import { defineRoutes } from '../../lib/route.js';
import { sendBlob } from '../../lib/send-file.js';
import { officePreview, thumbnailOf } from './preview.service.js';

export const previewModule = (deps: Deps) =>
  defineRoutes('preview', previewContract, {
    fileThumbnail: async ({ params, req, reply }) =>
      sendBlob(deps.blobs, req, reply, await thumbnailOf(deps, params.id)),
    officePreview: async ({ params }) => ({ data: await officePreview(deps, params.id) }),
  });
