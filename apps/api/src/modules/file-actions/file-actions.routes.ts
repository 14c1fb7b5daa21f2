import { fileActionsContract, XLSX_MEDIA_TYPE } from '@quire/contract';
import type { Deps } from '../../lib/deps.js';
import { defineRoutes } from '../../lib/route.js';
import { sendBlob, sendGenerated } from '../../lib/send-file.js';
import { type StoredUpload, storeUpload } from '../file/file.service.js';
import * as actions from './file-actions.service.js';
import { fileActivity } from './file-activity.service.js';
import * as locking from './locking.service.js';

export const fileActionsModule = (deps: Deps) =>
  defineRoutes('fileActions', fileActionsContract, {
    fileComment: async ({ body, auth, actor }) => ({
      message: 'Comment added',
      data: await actions.comment(deps, auth, actor, body.file_id, body.comment),
    }),
    deleteOtherFiles: async ({ body, auth, actor }) => ({
      message: 'Other files removed',
      data: await actions.deleteAttachments(deps, auth, actor, body.ids),
    }),
    downloadFiles: async ({ params, query, actor, req, reply }) =>
      sendBlob(deps.blobs, req, reply, {
        ...(await actions.download(deps, actor, params.id, query.version)),
        disposition: 'attachment',
      }),
    delete: async ({ body, auth, actor }) => {
      const data = await actions.trashFiles(deps, auth, actor, body.file_ids);
      return {
        message: data.deleted === 1 ? 'File moved to the trash' : `${data.deleted} files moved to the trash`,
        data,
      };
    },
    downloadOtherFiles: async ({ params, actor, req, reply }) =>
      sendBlob(deps.blobs, req, reply, {
        ...(await actions.downloadAttachment(deps, actor, params.id)),
        disposition: 'attachment',
      }),
    follow: async ({ body, auth, actor }) => {
      await actions.toggle(deps, auth, actor, body.file_id, 'follow');
      return { message: 'You follow this file', data: null };
    },
    unfollow: async ({ body, auth, actor }) => {
      await actions.toggle(deps, auth, actor, body.file_id, 'unfollow');
      return { message: 'You no longer follow this file', data: null };
    },
    favouriteFile: async ({ body, auth, actor }) => {
      await actions.toggle(deps, auth, actor, body.file_id, 'favourite');
      return { message: 'Added to your favourites', data: null };
    },
    unfavouriteFile: async ({ body, auth, actor }) => {
      await actions.toggle(deps, auth, actor, body.file_id, 'unfavourite');
      return { message: 'Taken out of your favourites', data: null };
    },
    rollbackVersion: async ({ body, auth, actor }) => ({
      message: 'Version restored as the current one',
      data: await actions.rollback(deps, auth, actor, body),
    }),
    lockFile: async ({ body, auth, actor }) => {
      const data = await locking.lock(deps, auth, actor, body);
      return { message: data.locked_by ? 'File locked' : 'File unlocked', data };
    },
    checkIn: async ({ body, files, auth, actor }) => {
      // Settled before a byte of the new version is read: the file is checked out, by the
      // caller (or by someone a File Control writer may release).
      await locking.assertCanCheckIn(deps, auth, body.file_id, false);
      let upload: StoredUpload | null = null;
      for await (const part of files) upload = await storeUpload(deps, part);
      return {
        message: upload ? 'New version checked in' : 'File checked in',
        data: await locking.checkIn(deps, auth, actor, body, upload),
      };
    },
    checkOut: async ({ body, auth, actor }) => ({
      message: 'File checked out',
      data: await locking.checkOut(deps, auth, actor, body.file_id),
    }),
    fileActivity: async ({ params, query }) => ({ data: await fileActivity(deps, params.id, query) }),
    exportFilesMain: async ({ params, auth, actor, reply }) => {
      const { content, filename } = await actions.exportRecord(deps, auth, actor, params.id);
      return sendGenerated(reply, {
        content,
        mimeType: XLSX_MEDIA_TYPE,
        filename,
      });
    },
  });
