import { z } from 'zod';
import { ZId } from './common.js';
import { endpoint } from './http.js';

// Calls on many files at once, from the selection of a file list (our own: the spec's
// calls take one file, except `delete` and `initiate-workflow`). Each is all or nothing: the
// rights are checked per file, and one refused file (named in the message) changes nothing.
// They join the file actions' entries in index.ts.

const ZFileIds = z.array(ZId).min(1).max(200);

export const ZBulkMoveBody = z.object({ file_ids: ZFileIds, folder_id: ZId });
export const ZBulkFileIdsBody = z.object({ file_ids: ZFileIds });

export const fileBulkContract = {
  bulkMove: endpoint({
    method: 'POST',
    path: '/api/files/bulk-move',
    guard: 'signedIn',
    summary:
      'Move files to category `folder_id` (edit on each file, upload there); their values are kept where the category has the field',
    body: ZBulkMoveBody,
    response: z.object({ moved: z.number().int() }),
    extension: true,
  }),
  bulkFollow: endpoint({
    method: 'POST',
    path: '/api/files/bulk-follow',
    guard: 'signedIn',
    summary: 'Follow files (view on each): you are told in the app when they change',
    body: ZBulkFileIdsBody,
    response: z.object({ followed: z.number().int() }),
    extension: true,
  }),
  downloadZip: endpoint({
    method: 'POST',
    path: '/api/files/download-zip',
    guard: 'signedIn',
    summary: 'The current version of each file (download on each), streamed as one zip',
    body: ZBulkFileIdsBody,
    produces: 'file',
    mediaType: 'application/zip',
    extension: true,
  }),
  downloadPdf: endpoint({
    method: 'POST',
    path: '/api/files/download-pdf',
    guard: 'signedIn',
    summary:
      'The current version of each file (download on each) as one PDF, in the order given: a PDF brings its pages, a PNG or JPEG image a page; any other file refuses the call (400 naming each)',
    body: ZBulkFileIdsBody,
    produces: 'file',
    mediaType: 'application/pdf',
    extension: true,
  }),
};
