import { z } from 'zod';
import { ZId, ZIdParams, zLine, zMultiline, zSecret } from './common.js';
import { ZFileRights, ZPersonRef, ZPreviewKind } from './file.js';
import { endpoint } from './http.js';

// Sharing a file (spec §4 "File", §7 "File"): its own permissions, sharing with users and
// groups, public links and what a public link shows. Registered under the `file` area
// (index.ts); a file's links as its sharers see them (ZShareLink) are part of file.ts's detail.

/** One grant of a file's own permissions: a user or a group (exactly one), and its rights. */
export const ZFileGrant = z
  .object({
    user_id: ZId.nullable().optional(),
    group_id: ZId.nullable().optional(),
    view: z.boolean().default(true),
    download: z.boolean().default(false),
    edit: z.boolean().default(false),
    delete: z.boolean().default(false),
    share: z.boolean().default(false),
  })
  .refine((g) => (g.user_id == null) !== (g.group_id == null), {
    message: 'Give a user_id or a group_id, not both',
  });
export type TFileGrant = z.infer<typeof ZFileGrant>;

export const ZFileGrantRow = z.object({
  id: z.number().int(),
  user: ZPersonRef.nullable(),
  group: z.object({ id: z.number().int(), name: z.string() }).nullable(),
  view: z.boolean(),
  download: z.boolean(),
  edit: z.boolean(),
  delete: z.boolean(),
  share: z.boolean(),
});
export type TFileGrantRow = z.infer<typeof ZFileGrantRow>;

export const ZFilePermissions = z.object({
  file_id: z.number().int(),
  /** false: the category's grants hold too (the rows below add to them). */
  has_own_permissions: z.boolean(),
  grants: z.array(ZFileGrantRow),
  /** What the caller may do with the file. */
  mine: ZFileRights,
});
export type TFilePermissions = z.infer<typeof ZFilePermissions>;

const ZMessage = zMultiline().trim().max(1000);

export const ZUpdateFilePermissionBody = z.object({
  file_id: ZId,
  /** false: only these grants (and the owner and File Control admins) reach the file. */
  inherit_category: z.boolean().default(true),
  /** Replaces the file's grants. */
  grants: z.array(ZFileGrant).max(500),
});

export const ZShareFileBody = z
  .object({
    /** Share with these users and groups (they get a notification and an e-mail). */
    user_ids: z.array(ZId).max(500).default([]),
    group_ids: z.array(ZId).max(500).default([]),
    /** What they may do besides view. */
    download: z.boolean().default(true),
    edit: z.boolean().default(false),
    message: ZMessage.optional(),
    /** Make a public link (the answer carries its token once). */
    public_link: z.boolean().default(false),
    /** The link stops working then (ISO date-time, in the future). */
    expires_at: z.iso.datetime({ offset: true }).nullable().optional(),
    /** Who opens the link must type it (8-256 characters). */
    password: zSecret().min(8, 'Use at least 8 characters').max(256).optional(),
    /** Revoke these links of the file (ids from file-view's links). */
    revoke_link_ids: z.array(z.uuid()).max(100).default([]),
  })
  .refine((b) => b.public_link || b.user_ids.length + b.group_ids.length + b.revoke_link_ids.length > 0, {
    message: 'Choose people or groups, ask for a public link, or revoke one',
    path: ['user_ids'],
  });

export const ZShareResult = z.object({
  file_id: z.number().int(),
  /** Users told (directly or through a group). */
  shared_with: z.array(ZPersonRef),
  link: z
    .object({
      id: z.string(),
      /** The link's token: shown once, never stored. */
      token: z.string(),
      /** The web client's address of the link (`/preview-file/<token>`). */
      path: z.string(),
      expires_at: z.string().nullable(),
      has_password: z.boolean(),
    })
    .nullable(),
  revoked: z.array(z.string()),
});
export type TShareResult = z.infer<typeof ZShareResult>;

/** A share link's token in a public path (any text: a wrong token is answered like an unknown one). */
export const ZShareTokenParams = z.object({ id: zLine().max(200) });
/** A password-protected link's proof of the password (from POST /api/public/file-unlock/{id}). */
export const ZShareAccessQuery = z.object({ access: zLine().max(300).optional() });

export const ZPublicFile = z.object({
  /** true: the link has a password and none was proven; the rest is null until it is. */
  password_required: z.boolean(),
  name: z.string().nullable(),
  mime_type: z.string().nullable(),
  size: z.number().int().nullable(),
  preview: ZPreviewKind.nullable(),
  expires_at: z.string().nullable(),
});
export type TPublicFile = z.infer<typeof ZPublicFile>;

export const fileSharingContract = {
  publicFileView: endpoint({
    method: 'GET',
    path: '/api/public/file-view/{id}',
    guard: 'public',
    summary:
      'A public link (id = its token, never a file id): the file it shows, while the link is live. A password-protected link needs `access` from POST /api/public/file-unlock/{id}',
    params: ZShareTokenParams,
    query: ZShareAccessQuery,
    response: ZPublicFile,
  }),
  publicFileUnlock: endpoint({
    method: 'POST',
    path: '/api/public/file-unlock/{id}',
    guard: 'public',
    extension: true,
    summary:
      "Prove a public link's password: answers an `access` proof for an hour (a wrong password is answered like a wrong link)",
    params: ZShareTokenParams,
    body: z.object({ password: zSecret().min(1).max(256) }),
    response: z.object({ access: z.string(), expires_at: z.string() }),
  }),
  publicFileContent: endpoint({
    method: 'GET',
    path: '/api/public/file-content/{id}',
    guard: 'public',
    extension: true,
    produces: 'file',
    summary:
      "A public link's file (id = its token): inline for PDF, raster images and plain text when `disposition=inline`, otherwise a download (counted)",
    params: ZShareTokenParams,
    query: ZShareAccessQuery.extend({ disposition: z.enum(['inline', 'attachment']).default('attachment') }),
  }),
  filePermissions: endpoint({
    method: 'GET',
    path: '/api/file-permissions/{id}',
    guard: 'signedIn',
    object: { file: 'view' },
    summary: "A file's own grants (users and groups), whether the category's hold too, and your rights",
    params: ZIdParams,
    response: ZFilePermissions,
  }),
  updateFilePermission: endpoint({
    method: 'POST',
    path: '/api/update-file-permission',
    guard: 'signedIn',
    object: { file: 'share', from: 'body.file_id' },
    summary:
      "Replace a file's own grants; with inherit_category false only they (and the owner) reach it. You cannot grant a right you do not hold",
    body: ZUpdateFilePermissionBody,
    response: ZFilePermissions,
  }),
  shareFile: endpoint({
    method: 'POST',
    path: '/api/share-file/{id}',
    guard: 'signedIn',
    object: { file: 'share' },
    summary:
      'Share a file with users and groups (notified in the app and by e-mail), make a public link (optional expiry and password), or revoke links',
    params: ZIdParams,
    body: ZShareFileBody,
    response: ZShareResult,
  }),
};
