import { z } from 'zod';
import { XLSX_MEDIA_TYPE, ZId, ZIdParams, ZNull, ZPage, ZPageQuery, zLine, zMultiline } from './common.js';
import { ZComment, ZFileDetail, ZFileVersion } from './file.js';
import { endpoint } from './http.js';

// Actions on a file (spec §7 "File actions"): comments, other files, downloads, the trash
// (one or many), follow, favourite, versions (rollback, check-in), lock, check-out, and the
// file's record as a spreadsheet. A file locked or checked out by someone else cannot be
// changed (409 naming the holder); File Control writers may release it.

const ZFileIdBody = z.object({ file_id: ZId });

export const ZLockBody = z.object({
  file_id: ZId,
  /** "1" locks; anything else unlocks. */
  status: z.union([zLine().max(8), z.number()]).transform((v) => String(v)),
});

/** Multipart fields of check-in: `file_id`, `comment`, then an optional part `file` (a new version). */
export const ZCheckInUpload = z.object({
  file_id: ZId,
  comment: zMultiline().trim().max(1000).optional(),
  file: z.custom<Blob>().optional(),
});

/** One change in a file's history, newest first (the audit events about the file). */
export const ZFileActivity = z.object({
  id: z.number().int(),
  created_at: z.string(),
  /** Who did it: their name, or null for the system (a job, a workflow trigger). */
  by: z.string().nullable(),
  action: z.string(),
  message: z.string(),
});
export type TFileActivity = z.infer<typeof ZFileActivity>;

export const ZFileState = z.object({
  file_id: z.number().int(),
  locked_by: z.object({ id: z.number().int(), name: z.string(), username: z.string() }).nullable(),
  checked_out_by: z.object({ id: z.number().int(), name: z.string(), username: z.string() }).nullable(),
});

export const fileActionsContract = {
  fileComment: endpoint({
    method: 'POST',
    path: '/api/file-comment',
    guard: 'signedIn',
    object: { file: 'view', from: 'body.file_id' },
    summary: 'Comment on a file (its followers are told)',
    body: z.object({ file_id: ZId, comment: zMultiline().trim().min(1, 'Write a comment').max(10_000) }),
    response: ZComment,
  }),
  deleteOtherFiles: endpoint({
    method: 'POST',
    path: '/api/delete-otherfiles',
    guard: 'signedIn',
    object: { attachment: 'edit', from: 'body.ids' },
    summary: 'Remove other files from their file: all or nothing',
    body: z.object({ ids: z.array(ZId).min(1).max(100) }),
    response: z.object({ deleted: z.number().int() }),
  }),
  downloadFiles: endpoint({
    method: 'GET',
    path: '/api/download-files/{id}',
    guard: 'signedIn',
    object: { file: 'download' },
    produces: 'file',
    summary: "Download a file's current version (or `version`, a version number), with ETag and Range",
    params: ZIdParams,
    query: z.object({ version: z.coerce.number().int().positive().max(1_000_000).optional() }),
  }),
  delete: endpoint({
    method: 'POST',
    path: '/api/delete',
    guard: 'signedIn',
    object: { file: 'delete', from: 'body.file_ids' },
    summary: 'Move one or many files to the trash: all or nothing',
    body: z.object({ file_ids: z.array(ZId).min(1).max(500) }),
    response: z.object({ deleted: z.number().int() }),
  }),
  downloadOtherFiles: endpoint({
    method: 'GET',
    path: '/api/download-otherfiles/{id}',
    guard: 'signedIn',
    object: { attachment: 'download' },
    produces: 'file',
    summary: 'Download one other file (id = its id)',
    params: ZIdParams,
  }),
  follow: endpoint({
    method: 'POST',
    path: '/api/follow',
    guard: 'signedIn',
    object: { file: 'view', from: 'body.file_id' },
    summary: 'Follow a file: you are told in the app when it changes',
    body: ZFileIdBody,
    response: ZNull,
  }),
  unfollow: endpoint({
    method: 'POST',
    path: '/api/unfollow',
    guard: 'signedIn',
    object: { file: 'view', from: 'body.file_id' },
    summary: 'Stop following a file',
    body: ZFileIdBody,
    response: ZNull,
  }),
  favouriteFile: endpoint({
    method: 'POST',
    path: '/api/favourite-file',
    guard: 'signedIn',
    object: { file: 'view', from: 'body.file_id' },
    summary: 'Add a file to your favourites',
    body: ZFileIdBody,
    response: ZNull,
  }),
  unfavouriteFile: endpoint({
    method: 'POST',
    path: '/api/unfavourite-file',
    guard: 'signedIn',
    object: { file: 'view', from: 'body.file_id' },
    summary: 'Take a file out of your favourites',
    body: ZFileIdBody,
    response: ZNull,
  }),
  rollbackVersion: endpoint({
    method: 'POST',
    path: '/api/rollback-version',
    guard: 'signedIn',
    object: { file: 'edit', from: 'body.file_id' },
    summary: 'Make an older version current again, as a new version (history is kept)',
    body: z.object({ file_id: ZId, version_id: ZId }),
    response: ZFileVersion,
  }),
  lockFile: endpoint({
    method: 'POST',
    path: '/api/lock-file',
    guard: 'signedIn',
    object: { file: 'edit', from: 'body.file_id' },
    summary:
      'Lock (status "1") or unlock a file; only its holder unlocks it, or a File Control writer (audited)',
    body: ZLockBody,
    response: ZFileState,
  }),
  checkIn: endpoint({
    method: 'POST',
    path: '/api/check-in',
    guard: 'signedIn',
    object: { file: 'edit', from: 'body.file_id' },
    consumes: 'multipart',
    upload: { field: 'file', max: 1, required: false },
    summary:
      "Check a file you checked out back in: with a part `file`, as a new version (fields `file_id`, `comment` first). A File Control writer may release anyone's check-out",
    body: ZCheckInUpload,
    response: ZFileDetail,
  }),
  checkOut: endpoint({
    method: 'POST',
    path: '/api/check-out',
    guard: 'signedIn',
    object: { file: 'edit', from: 'body.file_id' },
    summary: 'Check a file out: nobody else can change it until you check it in',
    body: ZFileIdBody,
    response: ZFileState,
  }),
  exportFilesMain: endpoint({
    method: 'GET',
    path: '/api/export-files-main/{id}',
    guard: 'signedIn',
    object: { file: 'view' },
    produces: 'file',
    mediaType: XLSX_MEDIA_TYPE,
    summary: "A file's record as .xlsx: its metadata, versions and history",
    params: ZIdParams,
  }),
  fileActivity: endpoint({
    method: 'GET',
    path: '/api/file-activity/{id}',
    guard: 'signedIn',
    object: { file: 'view' },
    extension: true,
    summary: "A file's history, newest first: every change to it, who made it and when",
    params: ZIdParams,
    query: ZPageQuery(20),
    response: ZPage(ZFileActivity),
  }),
};
