import { z } from 'zod';
import { ZId, ZIdParams, ZNull, ZPage, ZPageQuery, zLine } from './common.js';
import { ZFileDetail, ZFileSummary, ZPersonRef } from './file.js';
import { endpoint } from './http.js';

// The trash (spec §7 "Trash"), a File Control area: files moved there by `delete` (or with
// their category), restored to their category (or a chosen one when it is gone), or purged
// for good (their content is freed by the blob collector once nothing refers to it).
// "My deleted files" (our own): everyone signed in sees the files they deleted themselves and
// restores them while they may still delete them.

/** What a file in the trash adds to its row and to its page. */
const trashed = {
  deleted_at: z.string(),
  deleted_by: ZPersonRef.nullable(),
  /** The category still exists: a restore needs no folder_id. */
  folder_live: z.boolean(),
};

export const ZTrashFile = ZFileSummary.extend(trashed);
export type TTrashFile = z.infer<typeof ZTrashFile>;

export const ZTrashFileDetail = ZFileDetail.extend(trashed);

export const trashContract = {
  trash: endpoint({
    method: 'GET',
    path: '/api/files/trash',
    guard: { area: 'fileControl', access: 'read' },
    summary: 'Files in the trash, last deleted first',
    query: ZPageQuery(20).extend({ search: zLine().trim().max(255).optional() }),
    response: ZPage(ZTrashFile),
  }),
  trashFileView: endpoint({
    method: 'GET',
    path: '/api/files/trash-file-view/{id}',
    guard: { area: 'fileControl', access: 'read' },
    summary: 'A file in the trash, whole',
    params: ZIdParams,
    response: ZTrashFileDetail,
  }),
  restoreTrashFile: endpoint({
    method: 'POST',
    path: '/api/files/restore-trash-file/{id}',
    guard: { area: 'fileControl', access: 'write' },
    summary:
      'Restore a file from the trash to its category, or to `folder_id` (needed when its category is gone)',
    params: ZIdParams,
    body: z.object({ folder_id: ZId.optional() }).default({}),
    response: ZFileSummary,
  }),
  deleteTrashFile: endpoint({
    method: 'DELETE',
    path: '/api/files/trash-file/{id}',
    guard: { area: 'fileControl', access: 'write' },
    summary: 'Delete a file in the trash for good, with its versions, other files, comments and links',
    params: ZIdParams,
    response: ZNull,
  }),
  myDeletedFiles: endpoint({
    method: 'GET',
    path: '/api/files/my-deleted',
    guard: 'signedIn',
    summary: 'The files in the trash the caller deleted themselves, last deleted first',
    query: ZPageQuery(20).extend({ search: zLine().trim().max(255).optional() }),
    response: ZPage(ZTrashFile),
    extension: true,
  }),
  restoreMyDeletedFile: endpoint({
    method: 'POST',
    path: '/api/files/my-deleted/{id}/restore',
    guard: 'signedIn',
    summary:
      'Restore a file the caller deleted, if they may still delete it; to its category, or to `folder_id` (needed when its category is gone; upload there)',
    params: ZIdParams,
    body: z.object({ folder_id: ZId.optional() }).default({}),
    response: ZFileSummary,
    extension: true,
  }),
};
