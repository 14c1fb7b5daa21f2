import type {
  AccessType,
  TBackupSchedule,
  TCategory,
  TCategoryOption,
  TFileBrief,
  TFoundFile,
  TLoginData,
  TMetadataField,
  TRights,
  TUser,
  TWorkflowSummary,
} from '@quire/contract';
import { authRecordFrom, setAuth, setUserData } from '../lib/storage';

export function aUser(overrides: Partial<TUser> = {}): TUser {
  return {
    id: 7,
    username: 'jdoe',
    email: 'jdoe@example.test',
    first_name: 'Jane',
    last_name: 'Doe',
    name: 'Jane Doe',
    role: 'admin',
    access_type: 'Auditor',
    status: 'active',
    is2FAEnabled: false,
    created_at: '2025-01-01T00:00:00.000Z',
    ...overrides,
  };
}

export function aLogin(
  role: 'admin' | 'user',
  accessType: AccessType,
  overrides: Partial<TLoginData> = {},
): TLoginData {
  return {
    access_token: 'token-123',
    access_type: accessType,
    accountType: role === 'admin' ? 'Admin' : 'User',
    role,
    isCompany2FAEnabled: false,
    isUser2FAEnabled: false,
    user: aUser({ role, access_type: accessType }),
    ...overrides,
  };
}

/** Starts a test signed in, as a login would have left the browser. */
export function signIn(role: 'admin' | 'user', accessType: AccessType): TLoginData {
  const data = aLogin(role, accessType);
  setAuth(authRecordFrom(data));
  setUserData(data.user);
  return data;
}

/** A metadata field: a text field with no checks, used by nothing, unless `overrides` say. */
export function aMetadataField(overrides: Partial<TMetadataField> = {}): TMetadataField {
  return {
    id: 1,
    name: 'Field',
    type: 'text',
    value_list: null,
    required: false,
    help_text: '',
    min_number: null,
    max_number: null,
    min_date: null,
    max_date: null,
    max_length: null,
    pattern: null,
    position: 0,
    usage: { categories: 0, files: 0, workflows: 0 },
    created_at: '2025-01-01T00:00:00Z',
    updated_at: '2025-01-01T00:00:00Z',
    ...overrides,
  };
}

/** A category at the top, empty, that the caller may only view, unless `overrides` say. */
export function aCategory(overrides: Partial<TCategory> & { id: number }): TCategory {
  return {
    name: `Category ${overrides.id}`,
    description: '',
    parent_id: null,
    position: 0,
    depth: 0,
    inherit_fields: true,
    inherit_permissions: true,
    subcategory_count: 0,
    file_count: 0,
    rights: { view: true, upload: false, edit: false, delete: false, share: false, manage: false },
    ...overrides,
  };
}

/** The backup schedule of a new install: off, daily at 02:00, keeping 7. */
export function aBackupSchedule(overrides: Partial<TBackupSchedule> = {}): TBackupSchedule {
  return {
    enabled: false,
    frequency: 'daily',
    time: '02:00',
    day_of_week: null,
    cron: '0 2 * * *',
    keep_last: 7,
    next_run_at: null,
    updated_at: null,
    ...overrides,
  };
}

/** A workflow as the list gives it: active, two steps, serving no category and running on no file, unless `overrides` say. */
export function aWorkflow(
  overrides: Partial<TWorkflowSummary> & { id: number; name: string },
): TWorkflowSummary {
  return {
    description: '',
    status: 'active',
    step_count: 2,
    categories: [],
    running_count: 0,
    updated_at: '2026-11-20T10:00:00Z',
    ...overrides,
  };
}

/** A file as search and its text status name it: plain text in Invoices (id 4), owned by the
 * Company Admin, neither locked nor checked out, unless `overrides` say. */
export function aFileBrief(overrides: Partial<TFileBrief> & { id: number; name: string }): TFileBrief {
  return {
    category: { id: 4, name: 'Invoices' },
    owner: { id: 2, name: 'Company Admin' },
    mime_type: 'text/plain',
    size: 79,
    locked: false,
    checked_out: false,
    created_at: '2026-11-20T10:00:00Z',
    updated_at: '2026-11-20T10:00:00Z',
    ...overrides,
  };
}

/** A file a search found (see `aFileBrief`): rank 0.5, its name as it is, no passage, unless `overrides` say. */
export function aFoundFile(overrides: Partial<TFoundFile> & { id: number; name: string }): TFoundFile {
  return {
    ...aFileBrief(overrides),
    rank: 0.5,
    name_html: overrides.name,
    snippet_html: null,
    snippet_page: null,
    ...overrides,
  };
}

/** One page of a list holding `items`: page 1 of 1, 20 a page; `more` adds what the list's
 * answer carries besides (a cursor, a count) or changes the page's figures. */
export function onePage<T, M extends object = Record<never, never>>(items: T[], more?: M) {
  return { items, page: 1, quantity: 20, total: items.length, last_page: 1, ...more } as {
    items: T[];
    page: number;
    quantity: number;
    total: number;
    last_page: number;
  } & M;
}

/** Every right on a category. */
export const ALL_RIGHTS: TRights = {
  view: true,
  upload: true,
  edit: true,
  delete: true,
  share: true,
  manage: true,
};

/** A category as the pickers list it: at the top, its path its name, every right, unless `overrides` say. */
export function aCategoryOption(
  overrides: Partial<TCategoryOption> & { id: number; name: string },
): TCategoryOption {
  return { path: overrides.name, parent_id: null, rights: ALL_RIGHTS, ...overrides };
}
