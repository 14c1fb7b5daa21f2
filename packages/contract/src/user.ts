import { z } from 'zod';
import {
  excelImportFields,
  XLSX_MEDIA_TYPE,
  ZAccessType,
  ZExcelImport,
  ZId,
  ZIdParams,
  ZLoginRole,
  ZNull,
  ZPageMeta,
  ZPageQuery,
  ZPersonName,
  ZUser,
  ZUsername,
  ZUserStatus,
  zLine,
  zSecret,
} from './common.js';
import { endpoint } from './http.js';
import { PASSWORD_MAX_LENGTH } from './password-policy.js';

// Users (spec §7 "User"): the signed-in user's own password and signature, and the Settings
// area's user administration (write: User Administration Admin and Company Admin; read:
// Auditor too).

/** A group as a user row shows it. */
export const ZGroupRef = z.object({ id: z.number().int(), name: z.string() });

/** A user as the Settings screens show one: the common fields, groups and signature. */
export const ZAdminUser = ZUser.extend({
  groups: z.array(ZGroupRef),
  has_signature: z.boolean(),
  deleted_at: z.string().nullable(),
});
export type TAdminUser = z.infer<typeof ZAdminUser>;

/** A user in a picker (GET /api/all_user). */
export const ZUserOption = z.object({
  id: z.number().int(),
  name: z.string(),
  username: z.string(),
  email: z.string(),
  access_type: ZAccessType,
  status: ZUserStatus,
});
export type TUserOption = z.infer<typeof ZUserOption>;

/** A password typed by a person; the policy (`passwordProblems`) is checked by the API. */
const ZNewPassword = zSecret().min(1, 'Enter a password').max(PASSWORD_MAX_LENGTH);
const ZEmail = zLine().trim().max(255).pipe(z.email('Enter a valid e-mail address'));
const ZName = ZPersonName;
const ZGroupIds = z.array(ZId).max(1000);

export const ZChangeOwnPasswordBody = z.object({
  current_password: zSecret().min(1, 'Enter your current password').max(1024),
  new_password: ZNewPassword,
});
export type TChangeOwnPasswordBody = z.infer<typeof ZChangeOwnPasswordBody>;

/** One account to create. General staff always get login role `user`. */
export const ZCreateUserBody = z.object({
  username: ZUsername,
  email: ZEmail,
  first_name: ZName,
  last_name: ZName,
  password: ZNewPassword,
  role: ZLoginRole,
  access_type: ZAccessType,
  group_ids: ZGroupIds.optional(),
});
export type TCreateUserBody = z.infer<typeof ZCreateUserBody>;

export const ZCreateManyUsersBody = z.object({ users: z.array(ZCreateUserBody).min(1).max(1000) });

export const ZEditUserBody = z.object({
  username: ZUsername.optional(),
  email: ZEmail.optional(),
  first_name: ZName.optional(),
  last_name: ZName.optional(),
  role: ZLoginRole.optional(),
  access_type: ZAccessType.optional(),
  /** When given, replaces the user's group memberships. */
  group_ids: ZGroupIds.optional(),
});
export type TEditUserBody = z.infer<typeof ZEditUserBody>;

export const ZUserIdBody = z.object({ id: ZId });

export const ZSetUserPasswordBody = z.object({ user_id: ZId, password: ZNewPassword });
export type TSetUserPasswordBody = z.infer<typeof ZSetUserPasswordBody>;

export const ZUsersQuery = ZPageQuery(20).extend({
  /** Matches username, e-mail, first and last name (case-insensitive). */
  search: zLine().trim().max(255).optional(),
  /** Without it: every user not deleted. */
  status: ZUserStatus.optional(),
  sort: z.enum(['newest', 'name']).default('newest'),
});
export type TUsersQuery = z.infer<typeof ZUsersQuery>;

export const ZUsersPage = ZPageMeta.extend({ users: z.array(ZAdminUser) });

export const ZLoggedInUser = z.object({
  session_id: z.string(),
  /** True only for the session that makes this call (not for the caller's other sessions). */
  current: z.boolean(),
  user: ZUserOption,
  role: ZLoginRole,
  ip: z.string().nullable(),
  user_agent: z.string().nullable(),
  created_at: z.string(),
  last_seen_at: z.string(),
  expires_at: z.string(),
});
export type TLoggedInUser = z.infer<typeof ZLoggedInUser>;

export const ZSessionIdParams = z.object({ id: z.uuid('Not a session id') });

/** Multipart fields of the signature upload: one image part `file` (PNG or JPEG, ≤ 1 MiB). */
export const ZSignatureUpload = z.object({
  file: z.custom<Blob>(),
  /** Settings writers only: whose signature to set (default: your own). */
  user_id: ZId.optional(),
});
export const SIGNATURE_MAX_BYTES = 1024 * 1024;

export const ZSignatureData = z.object({
  user_id: z.number().int(),
  blob_id: z.string(),
  size: z.number().int(),
});

/** Columns of the import spreadsheet, in order (row 1 is the header). */
export const USER_IMPORT_COLUMNS = [
  'username',
  'email',
  'first_name',
  'last_name',
  'access_type',
  'role',
  'password',
] as const;
export const USER_IMPORT_MAX_BYTES = 5 * 1024 * 1024;
/** Users one import may hold; a sheet with more is refused whole (400). */
export const USER_IMPORT_MAX_ROWS = 1000;

/** Multipart fields of the import: `dry_run` and `file` (.xlsx). */
export const ZImportUsersUpload = z.object(excelImportFields);

export const ZImportUsersData = ZExcelImport(
  {
    username: z.string(),
    email: z.string(),
    first_name: z.string(),
    last_name: z.string(),
    access_type: z.string(),
    role: z.string(),
  },
  /** How many users were created (0 on a dry run). */
  { created: z.number().int() },
);

export const userContract = {
  current: endpoint({
    method: 'GET',
    path: '/api/user/current',
    guard: 'signedIn',
    summary: 'The signed-in user',
    response: ZUser,
  }),
  updatePassword: endpoint({
    method: 'POST',
    path: '/api/update-password',
    guard: 'signedIn',
    summary: 'Change your own password; your other sessions are signed out',
    body: ZChangeOwnPasswordBody,
    response: ZNull,
  }),
  uploadSignature: endpoint({
    method: 'POST',
    path: '/api/upload-user-signature',
    guard: 'signedIn',
    consumes: 'multipart',
    upload: { field: 'file' },
    summary:
      "Upload a signature image (PNG or JPEG, at most 1 MiB) as multipart field `file`; Settings writers may set another user's with field `user_id`",
    body: ZSignatureUpload,
    response: ZSignatureData,
  }),
  signature: endpoint({
    method: 'GET',
    path: '/api/user-signature/{id}',
    guard: 'signedIn',
    produces: 'file',
    mediaType: 'image/*',
    extension: true,
    summary: "Download a user's signature image (id = user id): your own, or anyone's with Settings read",
    params: ZIdParams,
  }),
  allUsers: endpoint({
    method: 'GET',
    path: '/api/all_user',
    guard: { area: 'settings', access: 'read' },
    summary: 'Every user not deleted, for pickers',
    response: z.array(ZUserOption),
  }),
  loggedInUsers: endpoint({
    method: 'GET',
    path: '/api/logged-in-user',
    guard: { area: 'settings', access: 'read' },
    summary:
      'Live sessions (not signed out, not expired), most recently seen first; `current` marks the one making this call',
    response: z.array(ZLoggedInUser),
  }),
  endSession: endpoint({
    method: 'POST',
    path: '/api/logged-in-user/{id}/end',
    guard: { area: 'settings', access: 'write' },
    extension: true,
    summary:
      "End another live session (id = session_id): its token stops working at once. Not the caller's current session (sign out instead), not the Vendor Admin's, not one of a user with more access than the caller",
    params: ZSessionIdParams,
    response: ZNull,
  }),
  unlockSignIn: endpoint({
    method: 'PUT',
    path: '/api/unlock_user',
    guard: { area: 'settings', access: 'write' },
    extension: true,
    summary:
      'Lift the sign-in slowdown of a user after failed attempts (as a new password or a reset link does); their password is unchanged',
    body: ZUserIdBody,
    response: ZAdminUser,
  }),
  createUser: endpoint({
    method: 'POST',
    path: '/api/users/createUser',
    guard: { area: 'settings', access: 'write' },
    summary: 'Create a user (never a Vendor Admin); General staff get login role user',
    body: ZCreateUserBody,
    response: ZAdminUser,
  }),
  createManyUsers: endpoint({
    method: 'POST',
    path: '/api/users/create-many-users',
    guard: { area: 'settings', access: 'write' },
    summary: 'Create several users at once: all or nothing; each bad row is named (body.users.3.email)',
    body: ZCreateManyUsersBody,
    response: z.object({ created: z.number().int(), users: z.array(ZAdminUser) }),
  }),
  importUsers: endpoint({
    method: 'POST',
    path: '/api/import_user',
    guard: { area: 'settings', access: 'write' },
    consumes: 'multipart',
    upload: { field: 'file' },
    summary:
      'Import users from an .xlsx (columns: username, email, first_name, last_name, access_type, role, password): all or nothing; `dry_run=true` previews',
    body: ZImportUsersUpload,
    response: ZImportUsersData,
  }),
  importTemplate: endpoint({
    method: 'GET',
    path: '/api/users/import-template',
    guard: { area: 'settings', access: 'read' },
    produces: 'file',
    mediaType: XLSX_MEDIA_TYPE,
    extension: true,
    summary:
      'The .xlsx template for POST /api/import_user: the first sheet holds only the header row; an example and the allowed values are on sheets that are not imported',
  }),
  editUser: endpoint({
    method: 'PUT',
    path: '/api/editUser/{id}',
    guard: { area: 'settings', access: 'write' },
    summary: 'Change a user; a changed access type or role signs that user out. Nobody changes their own',
    params: ZIdParams,
    body: ZEditUserBody,
    response: ZAdminUser,
  }),
  activateUser: endpoint({
    method: 'PUT',
    path: '/api/activate_user',
    guard: { area: 'settings', access: 'write' },
    summary: 'Activate a deactivated user (a deleted one stays deleted: 409)',
    body: ZUserIdBody,
    response: ZAdminUser,
  }),
  deactivateUser: endpoint({
    method: 'PUT',
    path: '/api/deactivate_user',
    guard: { area: 'settings', access: 'write' },
    summary: 'Deactivate a user: signed out at once, cannot sign in until activated',
    body: ZUserIdBody,
    response: ZAdminUser,
  }),
  deleteUser: endpoint({
    method: 'PUT',
    path: '/api/delete_user',
    guard: { area: 'settings', access: 'write' },
    summary: 'Delete a user (soft: the row, history and files stay; username and e-mail stay taken)',
    body: ZUserIdBody,
    response: ZAdminUser,
  }),
  resetPassword: endpoint({
    method: 'POST',
    path: '/api/reset-password',
    guard: { area: 'settings', access: 'write' },
    summary: "Set a user's password (policy checked); that user is signed out everywhere",
    body: ZSetUserPasswordBody,
    response: ZNull,
  }),
  users: endpoint({
    method: 'GET',
    path: '/api/users/all',
    guard: { area: 'settings', access: 'read' },
    summary: 'Users, a page at a time (default 20), searchable, newest first or by name',
    query: ZUsersQuery,
    response: ZUsersPage,
  }),
};
