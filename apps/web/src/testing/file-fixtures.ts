import type {
  TCategoryField,
  TFileDetail,
  TFileSummary,
  TFileVersion,
  TMetadataField,
} from '@quire/contract';
import { aMetadataField, signIn } from './fixtures';
import { type MockRoutes, mockApi } from './mock-api';

// The file page's fixtures: one file (id 5, in Invoices, id 4) and the calls its page makes
// besides the file itself, for the file page's tests.

export const olive = { id: 7, name: 'Jane Doe', username: 'jdoe' };
export const sam = { id: 8, name: 'Sam Clerk', username: 'sam' };

export function aVersion(number: number, overrides: Partial<TFileVersion> = {}): TFileVersion {
  return {
    id: 200 + number,
    number,
    name: `report-v${number}.txt`,
    mime_type: 'text/plain',
    size: 1024 * number,
    author: olive,
    comment: '',
    rolled_back_from: null,
    is_current: false,
    preview: 'text',
    created_at: `2026-01-0${number}T10:00:00Z`,
    ...overrides,
  };
}

/** A file as the lists show it: a PDF, version 1, indexed in Invoices (id 4), owned by olive. */
export function aFileSummary(id: number, name: string, overrides: Partial<TFileSummary> = {}): TFileSummary {
  return {
    id,
    name,
    folder_id: 4,
    folder_name: 'Invoices',
    index_status: 'indexed',
    incremental: `INV-${id}`,
    owner: olive,
    mime_type: 'application/pdf',
    size: 2048,
    version: 1,
    locked_by: null,
    checked_out_by: null,
    created_at: '2026-01-10T10:00:00Z',
    updated_at: '2026-01-10T10:00:00Z',
    ...overrides,
  };
}

/** A listed file as its page shows it: no values, versions or comments; every right but share. */
export function detailOf(file: TFileSummary, overrides: Partial<TFileDetail> = {}): TFileDetail {
  return {
    ...file,
    incremental_value: file.id,
    values: [],
    versions: [],
    current_version_id: 100 + file.id,
    preview: 'text',
    locked_at: null,
    checked_out_at: null,
    followers: [],
    is_following: false,
    is_favourite: false,
    comments: [],
    other_files: [],
    permissions: { view: true, download: true, edit: true, delete: true, share: false },
    has_own_permissions: false,
    links: [],
    ...overrides,
  };
}

/** report.txt, two versions (2 current), indexed in Invoices, every right but share. */
export function aFile(overrides: Partial<TFileDetail> = {}): TFileDetail {
  const summary = aFileSummary(5, 'report.txt', {
    mime_type: 'text/plain',
    version: 2,
    created_at: '2026-01-01T10:00:00Z',
    updated_at: '2026-01-02T10:00:00Z',
  });
  return detailOf(summary, {
    values: [{ field_id: 13, name: 'Reference', type: 'text', value: 'REF-1', display: 'REF-1' }],
    versions: [aVersion(2, { is_current: true }), aVersion(1)],
    current_version_id: 202,
    ...overrides,
  });
}

/** A category's field, as folderMeta lists it. */
export function aCategoryField(
  field: Partial<TMetadataField>,
  overrides: Partial<TCategoryField> = {},
): TCategoryField {
  return {
    field: aMetadataField(field),
    position: 0,
    required: field.required ?? false,
    required_override: null,
    default_value: null,
    show_in_list: true,
    inherited: false,
    inherited_from: null,
    ...overrides,
  };
}

/**
 * Signed in as General staff (user 7), with the file page's other panels answered; `file` is
 * what GET /api/file-view/5 answers (a function: each call asks it again).
 */
export function fileServer(
  file: TFileDetail | (() => TFileDetail | Promise<TFileDetail>),
  routes: MockRoutes = {},
) {
  const data = signIn('user', 'General staff');
  const current = typeof file === 'function' ? file : () => file;
  return mockApi({
    'GET /api/user/current': { body: { data: data.user } },
    'GET /api/file-view/5': async () => ({ body: { data: await current() } }),
    'GET /api/folder-workflow-stage/5': {
      body: { data: { file_id: 5, file_name: 'report.txt', run: null, history: [] } },
    },
    'GET /api/version-preview/202': { body: 'The second version, as text.' },
    'GET /api/file-activity/5': {
      body: { data: { items: [], page: 1, quantity: 10, total: 0, last_page: 1 } },
    },
    ...routes,
  });
}
