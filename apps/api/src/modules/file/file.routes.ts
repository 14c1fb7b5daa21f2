import { fileContract, fileSharingContract } from '@quire/contract';
import type { Deps } from '../../lib/deps.js';
import { defineRoutes, readsOnly } from '../../lib/route.js';
import { sendBlob, sendGenerated } from '../../lib/send-file.js';
import { COMBINED_NAME, combineAttachments } from './combine.service.js';
import * as files from './file.service.js';
import * as lists from './file-lists.service.js';
import * as sharing from './file-sharing.service.js';
import { versionForPreview, viewFile } from './file-view.service.js';
import * as indexing from './index-files.service.js';
import * as publicLink from './public-link.service.js';
import * as uploads from './upload-files.service.js';

const MINUTE = '1 minute';
// The calls of file.ts and file-sharing.ts in the contract.
const calls = { ...fileContract, ...fileSharingContract };

export const fileModule = (deps: Deps) => {
  files.registerFileGuards(deps);
  // Public links: per address, so guessing tokens or passwords is slow; wrong ones are
  // answered alike (file-sharing.service.ts).
  const publicLimit = {
    max: 120,
    timeWindow: MINUTE,
    keyGenerator: (req: { ip: string }) => `share:${req.ip}`,
  };
  return defineRoutes('file', calls, {
    fileView: async ({ params, auth, actor }) => ({
      data: await viewFile(deps, auth, actor, params.id),
    }),
    publicFileView: {
      rateLimit: publicLimit,
      handler: async ({ params, query }) => ({
        data: await publicLink.publicFile(deps, params.id, query.access),
      }),
    },
    publicFileUnlock: {
      rateLimit: { max: 10, timeWindow: MINUTE, keyGenerator: (req) => `share-unlock:${req.ip}` },
      handler: async ({ params, body, actor }) => ({
        data: await publicLink.unlockPublicFile(deps, actor, params.id, body.password),
      }),
    },
    publicFileContent: {
      rateLimit: publicLimit,
      handler: async ({ params, query, actor, req, reply }) =>
        sendBlob(deps.blobs, req, reply, {
          ...(await publicLink.publicContent(deps, actor, params.id, query.access, query.disposition)),
          cacheControl: 'private, no-store',
        }),
    },
    otherFilesUpload: async ({ body, files: parts, auth, actor }) => {
      // Whether the file takes a change is settled before a byte is read.
      await files.assertCanChange(deps, auth, body.file_id);
      const stored: files.StoredUpload[] = [];
      for await (const part of parts) stored.push(await files.storeUpload(deps, part));
      return {
        message: stored.length === 1 ? 'File attached' : `${stored.length} files attached`,
        data: await uploads.addAttachments(deps, auth, actor, body.file_id, stored),
      };
    },
    newUpload: async ({ body, files: parts, auth, actor }) => {
      // Said before its content is stored: the group writing other uploads meanwhile waits for it.
      const expected = uploads.expectUpload(deps);
      try {
        const stored: files.StoredUpload[] = [];
        for await (const part of parts) stored.push(await files.storeUpload(deps, part));
        return {
          message: stored.length === 1 ? 'File uploaded' : `${stored.length} files uploaded`,
          data: await uploads.createUploads(deps, auth, actor, body.folder_id, stored, expected),
        };
      } finally {
        expected.cancel();
      }
    },
    editFileUserField: async ({ body, auth, actor }) => ({
      message: 'File values saved',
      data: await indexing.editValues(deps, auth, actor, body),
    }),
    editFileName: async ({ body, auth, actor }) => ({
      message: 'File renamed',
      data: await indexing.renameFile(deps, auth, actor, body.file_id, body.name),
    }),
    downloadManyOtherFiles: async ({ body, actor, reply }) =>
      sendGenerated(reply, {
        content: await combineAttachments(deps, actor, body.ids),
        mimeType: 'application/pdf',
        filename: COMBINED_NAME,
      }),
    updateFileCategory: async ({ body, auth, actor }) => ({
      message: 'File moved',
      data: await indexing.moveFile(deps, auth, actor, body),
    }),
    // The person's lists only read: each may start ahead of its session's read (lib/session-ahead.ts).
    unindexFile: readsOnly(async ({ query, auth }) => ({
      data: await lists.unindexedFiles(deps, auth, query),
    })),
    submitMetas: async ({ body, auth, actor }) => ({
      message: 'File indexed',
      data: await indexing.submitMetas(deps, auth, actor, body),
    }),
    cancelIndexFile: async ({ body, auth, actor }) => {
      await indexing.cancelIndex(deps, auth, actor, body.file_id);
      return { message: 'Upload cancelled', data: null };
    },
    checkedOutFiles: readsOnly(async ({ query, auth }) => ({
      data: await lists.checkedOutFiles(deps, auth, query),
    })),
    favoriteFiles: readsOnly(async ({ query, auth }) => ({
      data: await lists.favouriteFiles(deps, auth, query),
    })),
    versionPreview: async ({ params, auth, actor, req, reply }) =>
      sendBlob(deps.blobs, req, reply, {
        ...(await versionForPreview(deps, auth, actor, params.id)),
        disposition: 'inline',
      }),
    filePermissions: async ({ params, auth }) => ({
      data: await sharing.filePermissions(deps, auth, params.id),
    }),
    updateFilePermission: async ({ body, auth, actor }) => ({
      message: 'Permissions saved',
      data: await sharing.updateFilePermissions(deps, auth, actor, body),
    }),
    shareFile: async ({ params, body, auth, actor }) => ({
      message: 'File shared',
      data: await sharing.shareFile(deps, auth, actor, params.id, body),
    }),
    incrementalValue: async ({ params }) => ({ data: await files.incrementalValue(deps, params.id) }),
  });
};
