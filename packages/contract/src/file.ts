import { z } from 'zod';
import { ZId, ZIdParams, ZNull, ZPage, ZPageQuery, ZText, zMultiline } from './common.js';
import { endpoint } from './http.js';
import { ZFieldType } from './metadata.js';

// Files (spec §3 "File", §4 "File", §7 "File"): upload into a category, index with the
// category's metadata fields, view, rename, move, per-file permissions, sharing (with users
// and groups, and public links), versions. The actions on a file (comments, lock, check in
// and out, follow, favourite, downloads, trash) are `file-actions.ts`; the category's file
// list is `category-files.ts`; permissions, sharing and public links are `file-sharing.ts`.

/** Most files one upload takes (new-upload, other-files-upload). */
export const UPLOAD_MAX_FILES = 20;
/** The longest file name kept (display only: the disk path never comes from a name). */
export const FILE_NAME_MAX = 255;

/** What the web client can show inline: the rest downloads. */
export const ZPreviewKind = z.enum(['pdf', 'image', 'text', 'none']);
export type TPreviewKind = z.infer<typeof ZPreviewKind>;

/** Someone, as a file's rows name them. */
export const ZPersonRef = z.object({ id: z.number().int(), name: z.string(), username: z.string() });
export type TPersonRef = z.infer<typeof ZPersonRef>;

/** What the caller may do with a file. */
export const ZFileRights = z.object({
  view: z.boolean(),
  download: z.boolean(),
  edit: z.boolean(),
  delete: z.boolean(),
  share: z.boolean(),
});
export type TFileRights = z.infer<typeof ZFileRights>;

/** A metadata value as given: text, a number, a date (YYYY-MM-DD), a boolean, a value-list key, a user id. */
export const ZFieldValueInput = z.object({
  field_id: ZId,
  value: z.union([zMultiline().max(10_000), z.number(), z.boolean(), z.null()]),
});
export type TFieldValueInput = z.infer<typeof ZFieldValueInput>;

/** A metadata value as shown: the typed value and how it reads. */
export const ZFieldValue = z.object({
  field_id: z.number().int(),
  name: z.string(),
  type: ZFieldType,
  value: z.union([z.string(), z.number(), z.boolean(), z.null()]),
  /** The value as a person reads it (a list item's label, a user's name). */
  display: z.string(),
});
export type TFieldValue = z.infer<typeof ZFieldValue>;

export const ZFileVersion = z.object({
  id: z.number().int(),
  number: z.number().int(),
  /** The name the file had when this version was uploaded. */
  name: z.string(),
  mime_type: z.string(),
  size: z.number().int(),
  author: ZPersonRef,
  comment: z.string(),
  /** The number of the version a rollback copied, or null. */
  rolled_back_from: z.number().int().nullable(),
  is_current: z.boolean(),
  preview: ZPreviewKind,
  created_at: z.string(),
});
export type TFileVersion = z.infer<typeof ZFileVersion>;

/** One row of every file list (category files, unindexed, checked out, favourites, trash). */
export const ZFileSummary = z.object({
  id: z.number().int(),
  name: z.string(),
  folder_id: z.number().int().nullable(),
  folder_name: z.string().nullable(),
  index_status: z.enum(['unindexed', 'indexed']),
  /** The category's running number, with its prefix (e.g. "INV-12"). */
  incremental: z.string().nullable(),
  owner: ZPersonRef,
  mime_type: z.string(),
  size: z.number().int(),
  version: z.number().int(),
  locked_by: ZPersonRef.nullable(),
  checked_out_by: ZPersonRef.nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type TFileSummary = z.infer<typeof ZFileSummary>;

export const ZAttachment = z.object({
  id: z.number().int(),
  file_id: z.number().int(),
  name: z.string(),
  mime_type: z.string(),
  size: z.number().int(),
  uploaded_by: ZPersonRef,
  created_at: z.string(),
});
export type TAttachment = z.infer<typeof ZAttachment>;

export const ZComment = z.object({
  id: z.number().int(),
  author: ZPersonRef,
  comment: z.string(),
  created_at: z.string(),
});
export type TComment = z.infer<typeof ZComment>;

/** A public link as its file's sharers see it (never its token, which only its creator got). */
export const ZShareLink = z.object({
  id: z.string(),
  created_by: ZPersonRef,
  expires_at: z.string().nullable(),
  has_password: z.boolean(),
  revoked_at: z.string().nullable(),
  download_count: z.number().int(),
  last_used_at: z.string().nullable(),
  created_at: z.string(),
  /** Not revoked and not expired. */
  live: z.boolean(),
});
export type TShareLink = z.infer<typeof ZShareLink>;

export const ZFileDetail = ZFileSummary.extend({
  incremental_value: z.number().int().nullable(),
  values: z.array(ZFieldValue),
  versions: z.array(ZFileVersion),
  current_version_id: z.number().int(),
  preview: ZPreviewKind,
  locked_at: z.string().nullable(),
  checked_out_at: z.string().nullable(),
  followers: z.array(ZPersonRef),
  is_following: z.boolean(),
  is_favourite: z.boolean(),
  comments: z.array(ZComment),
  other_files: z.array(ZAttachment),
  /** What the caller may do with it. */
  permissions: ZFileRights,
  /** The file has its own grants and the category's do not hold for it. */
  has_own_permissions: z.boolean(),
  /** The public links, for those who may share (empty otherwise). */
  links: z.array(ZShareLink),
});
export type TFileDetail = z.infer<typeof ZFileDetail>;

const ZFileIdBody = z.object({ file_id: ZId });
const ZValues = z.array(ZFieldValueInput).max(500);

/** Multipart fields of new-upload: `folder_id` first, then up to 20 parts `file`. */
export const ZNewUpload = z.object({ folder_id: ZId, file: z.custom<Blob>() });
export const ZUploadedFiles = z.object({ folder_id: z.number().int(), files: z.array(ZFileSummary) });

/** Multipart fields of other-files-upload: `file_id` first, then up to 20 parts `file`. */
export const ZOtherFilesUpload = z.object({ file_id: ZId, file: z.custom<Blob>() });

export const ZUnindexedQuery = ZPageQuery(20).extend({ folder_id: ZId.optional() });

export const ZSubmitMetasBody = z.object({
  file_id: ZId,
  values: ZValues.default([]),
  /** The category's related tags the file carries. */
  tag_ids: z.array(ZId).max(100).optional(),
});

export const ZEditFileFieldsBody = z.object({ file_id: ZId, values: ZValues.min(1) });
export const ZEditFileNameBody = z.object({ file_id: ZId, name: ZText(FILE_NAME_MAX) });
export const ZUpdateFileCategoryBody = z.object({
  file_id: ZId,
  folder_id: ZId,
  /** Values for the new category's fields (kept values of shared fields need not be repeated). */
  values: ZValues.optional(),
});

export const ZIncrementalValue = z.object({
  folder_id: z.number().int(),
  /** The number the next file filed here gets (not reserved). */
  next_value: z.number().int(),
  prefix: z.string(),
  display: z.string(),
});

export const fileContract = {
  fileView: endpoint({
    method: 'GET',
    path: '/api/file-view/{id}',
    guard: 'signedIn',
    object: { file: 'view' },
    summary:
      'A file with its category, metadata, versions, lock, check-out, followers, comments, other files, your rights and (for sharers) its links',
    params: ZIdParams,
    response: ZFileDetail,
  }),
  otherFilesUpload: endpoint({
    method: 'POST',
    path: '/api/other-files-upload',
    guard: 'signedIn',
    object: { file: 'edit', from: 'body.file_id' },
    consumes: 'multipart',
    upload: { field: 'file', max: UPLOAD_MAX_FILES },
    summary: 'Attach "other files" to a file: field `file_id`, then up to 20 parts `file`',
    body: ZOtherFilesUpload,
    response: z.array(ZAttachment),
  }),
  newUpload: endpoint({
    method: 'POST',
    path: '/api/new-upload',
    guard: 'signedIn',
    object: { category: 'upload', from: 'body.folder_id' },
    consumes: 'multipart',
    upload: { field: 'file', max: UPLOAD_MAX_FILES },
    summary:
      'Upload one or many files into a category (field `folder_id`, then up to 20 parts `file`); each becomes an unindexed file of yours with the next running number',
    body: ZNewUpload,
    response: ZUploadedFiles,
  }),
  editFileUserField: endpoint({
    method: 'POST',
    path: '/api/edit-file-user-field',
    guard: 'signedIn',
    object: { file: 'edit', from: 'body.file_id' },
    summary: "Change an indexed file's metadata values (checked against its category's fields)",
    body: ZEditFileFieldsBody,
    response: ZFileDetail,
  }),
  editFileName: endpoint({
    method: 'POST',
    path: '/api/edit-file-name',
    guard: 'signedIn',
    object: { file: 'edit', from: 'body.file_id' },
    summary: 'Rename a file',
    body: ZEditFileNameBody,
    response: ZFileDetail,
  }),
  downloadManyOtherFiles: endpoint({
    method: 'POST',
    path: '/api/download-many-other-files',
    guard: 'signedIn',
    object: { attachment: 'download', from: 'body.ids' },
    produces: 'file',
    mediaType: 'application/pdf',
    summary:
      'The chosen other files (PDFs and images) combined into one PDF, selected_files.pdf; all or nothing',
    body: z.object({ ids: z.array(ZId).min(1).max(100) }),
  }),
  updateFileCategory: endpoint({
    method: 'POST',
    path: '/api/update-file-category',
    guard: 'signedIn',
    object: { file: 'edit', from: 'body.file_id' },
    summary:
      "Move a file to another category (you need upload there); its values are checked against the new category's fields and it gets that category's next running number",
    body: ZUpdateFileCategoryBody,
    response: ZFileDetail,
  }),
  unindexFile: endpoint({
    method: 'GET',
    path: '/api/unindex-file',
    guard: 'signedIn',
    summary: 'Your unindexed files (newest first), of one category with `folder_id`',
    query: ZUnindexedQuery,
    response: ZPage(ZFileSummary),
  }),
  submitMetas: endpoint({
    method: 'POST',
    path: '/api/submitmetas',
    guard: 'signedIn',
    object: { file: 'edit', from: 'body.file_id' },
    summary:
      "Index an unindexed file: its values are checked against its category's fields (required, type, list keys, bounds)",
    body: ZSubmitMetasBody,
    response: ZFileDetail,
  }),
  cancelIndexFile: endpoint({
    method: 'POST',
    path: '/api/cancel-index-file',
    guard: 'signedIn',
    object: { file: 'delete', from: 'body.file_id' },
    summary: 'Drop an unindexed file (its content is freed once nothing refers to it)',
    body: ZFileIdBody,
    response: ZNull,
  }),
  checkedOutFiles: endpoint({
    method: 'GET',
    path: '/api/checked-out-files',
    guard: 'signedIn',
    summary: 'The files you have checked out, newest check-out first',
    query: ZPageQuery(20),
    response: ZPage(ZFileSummary),
  }),
  favoriteFiles: endpoint({
    method: 'GET',
    path: '/api/favorite-files',
    guard: 'signedIn',
    summary: 'Your favourite files you may still see, newest first',
    query: ZPageQuery(20),
    response: ZPage(ZFileSummary),
  }),
  versionPreview: endpoint({
    method: 'GET',
    path: '/api/version-preview/{id}',
    guard: 'signedIn',
    object: { version: 'view' },
    produces: 'file',
    summary:
      'A version (id = version id) to preview: inline for PDF, raster images and plain text; any other type is a download, so it needs the download right (403 without it)',
    params: ZIdParams,
  }),
  incrementalValue: endpoint({
    method: 'GET',
    path: '/api/incremental-value/{id}',
    guard: 'signedIn',
    object: { category: 'view' },
    summary: 'The running number the next file filed in a category (id) gets',
    params: ZIdParams,
    response: ZIncrementalValue,
  }),
};
