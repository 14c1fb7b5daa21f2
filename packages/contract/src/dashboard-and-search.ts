import { z } from 'zod';
import { ZId, ZIdParams, ZPageMeta, zLine } from './common.js';
import { endpoint } from './http.js';

// The dashboard, the header search, the search results page and the metadata filters (spec
// §7 "Dashboard and search"). Every list shows only the files the caller may see, filtered in
// the SQL (apps/api/src/lib/visibility.ts).

/** A file as the dashboard and the search lists show it. */
export const ZFileBrief = z.object({
  id: z.number().int(),
  name: z.string(),
  category: z.object({ id: z.number().int(), name: z.string() }).nullable(),
  owner: z.object({ id: z.number().int(), name: z.string() }),
  /** Of the current version. */
  mime_type: z.string().nullable(),
  size: z.number().int().nullable(),
  locked: z.boolean(),
  checked_out: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type TFileBrief = z.infer<typeof ZFileBrief>;

/** Counting stops at 10,000: past it `total` is 10,000 and `total_exact` false. */
export const ZCountedPage = <T extends z.ZodType>(item: T) =>
  ZPageMeta.extend({ items: z.array(item), total_exact: z.boolean() });

// ---- dashboard ------------------------------------------------------------------------------

export const DASHBOARD_TABLES = ['previewed', 'checked_out', 'recent', 'assigned'] as const;
export type DashboardTable = (typeof DASHBOARD_TABLES)[number];

export const ZDashboardRow = z.object({
  file: ZFileBrief,
  /** previewed: when I last opened it; checked_out: since when; recent: last change; assigned: since when it waits. */
  at: z.string(),
  /** assigned: the workflow step waiting on me. */
  task: z
    .object({
      id: z.number().int(),
      step: z.object({ id: z.number().int(), name: z.string() }),
      workflow: z.object({ id: z.number().int(), name: z.string() }),
      due_at: z.string().nullable(),
    })
    .nullable(),
});
export type TDashboardRow = z.infer<typeof ZDashboardRow>;

export const ZDashboardPage = ZCountedPage(ZDashboardRow);
export type TDashboardPage = z.infer<typeof ZDashboardPage>;

export const ZDashboardQuery = z.object({
  page: z.coerce.number().int().min(1).max(10000).default(1),
  /** Rows per table (an extension; default 10). */
  quantity: z.coerce.number().int().min(1).max(100).default(10),
  /** One table only (an extension): the others are left out of the answer. */
  table: z.enum(DASHBOARD_TABLES).optional(),
});
export type TDashboardQuery = z.input<typeof ZDashboardQuery>;

export const ZDashboard = z.object({
  previewed: ZDashboardPage.optional(),
  checked_out: ZDashboardPage.optional(),
  recent: ZDashboardPage.optional(),
  assigned: ZDashboardPage.optional(),
});
export type TDashboard = z.infer<typeof ZDashboard>;

// ---- search ---------------------------------------------------------------------------------

/** What a person typed; at least one letter or digit. */
export const ZSearchText = zLine()
  .trim()
  .min(1, 'Type something to search for')
  .max(200, 'Use at most 200 characters')
  .refine((v) => /[\p{L}\p{N}]/u.test(v), 'Type at least one letter or digit');

/** A file found by a search, with where it matched. */
export const ZFoundFile = ZFileBrief.extend({
  /** Higher is a better match (0 without a search). */
  rank: z.number(),
  /** The name, HTML-escaped, matching parts in `<mark>`. */
  name_html: z.string(),
  /** The best matching passage of its metadata, tags, comments or content, HTML-escaped, with `<mark>`; null when only the name matched. */
  snippet_html: z.string().nullable(),
  /** The page (1-based) of the document where the searched word is, when the content has pages (PDFs, recognised scans). */
  snippet_page: z.number().int().nullable(),
});
export type TFoundFile = z.infer<typeof ZFoundFile>;

/** A place in a newest-first list: `<created_at in ms>.<file id>` of the last file of a page. */
export const ZFileCursor = z
  .string()
  .regex(/^\d{1,15}\.\d{1,10}$/, 'Give the next_cursor of the page before');

export const ZFoundPage = ZCountedPage(ZFoundFile).extend({
  /**
   * An extension: a filter list without search words (newest first) gives the `cursor` of the
   * page after this one; null when this page is not full. Absent from ranked searches.
   */
  next_cursor: ZFileCursor.nullable().optional(),
});
export type TFoundPage = z.infer<typeof ZFoundPage>;

export const ZSearchQuery = (defaultQuantity: number) =>
  z.object({
    search: ZSearchText,
    page: z.coerce.number().int().min(1).max(10000).default(1),
    quantity: z.coerce.number().int().min(1).max(500).default(defaultQuantity),
  });

// ---- filters --------------------------------------------------------------------------------

export const ZFilterAttributes = z.object({
  /** The categories the caller may see, parents before children. */
  categories: z.array(
    z.object({ id: z.number().int(), name: z.string(), parent_id: z.number().int().nullable() }),
  ),
  /** The metadata fields of those categories; a select field lists its value-list items. */
  fields: z.array(
    z.object({
      id: z.number().int(),
      name: z.string(),
      type: z.enum(['text', 'number', 'date', 'boolean', 'select', 'user']),
      items: z.array(z.object({ key: z.number().int(), label: z.string() })).nullable(),
    }),
  ),
  /** The owners of files the caller may see. */
  owners: z.array(z.object({ id: z.number().int(), name: z.string() })),
  /** The steps of the workflows of those categories. */
  workflow_steps: z.array(
    z.object({
      id: z.number().int(),
      name: z.string(),
      workflow: z.object({ id: z.number().int(), name: z.string() }),
    }),
  ),
});
export type TFilterAttributes = z.infer<typeof ZFilterAttributes>;

const ZFilterScalar = z.union([zLine().trim().max(500), z.number(), z.boolean()]);

/**
 * A metadata condition: `value` (equals; a text field matches case-insensitively), `min`
 * and/or `max` (a range of a number or date field, inclusive), or `keys` (a select field's
 * value-list keys, any of them).
 */
export const ZFieldFilter = z
  .object({
    field_id: ZId,
    value: ZFilterScalar.optional(),
    min: z.union([z.number(), z.iso.date()]).optional(),
    max: z.union([z.number(), z.iso.date()]).optional(),
    keys: z.array(z.number().int().min(1).max(10000)).min(1).max(100).optional(),
  })
  .refine(
    (f) =>
      [f.value !== undefined, f.min !== undefined || f.max !== undefined, f.keys !== undefined].filter(
        Boolean,
      ).length === 1,
    'Give one of value, min/max or keys',
  );
export type TFieldFilter = z.infer<typeof ZFieldFilter>;

export const ZFilterFilesBody = z
  .object({
    /** Search text: filters and search combine. */
    search: ZSearchText.optional(),
    category_id: ZId.optional(),
    /** With category_id: its sub-categories too (default true). */
    include_subcategories: z.boolean().default(true),
    /** Created on or after this day (YYYY-MM-DD). */
    startDate: z.iso.date().optional(),
    /** Created on or before this day. */
    endDate: z.iso.date().optional(),
    owner_id: ZId.optional(),
    /** Files whose running workflow waits at this step. */
    workflow_step_id: ZId.optional(),
    locked: z.boolean().optional(),
    checked_out: z.boolean().optional(),
    fields: z.array(ZFieldFilter).max(20).default([]),
  })
  .refine((b) => !b.startDate || !b.endDate || b.startDate <= b.endDate, {
    message: 'The start date must not be after the end date',
    path: ['endDate'],
  });
export type TFilterFilesBody = z.input<typeof ZFilterFilesBody>;
export type TFilterFilesInput = z.infer<typeof ZFilterFilesBody>;

export const ZFilterFilesQuery = z.object({
  page: z.coerce.number().int().min(1).max(10000).default(1),
  quantity: z.coerce.number().int().min(1).max(500).default(20),
  /**
   * Keyset paging (an extension of the spec's page): the `next_cursor` of the page before. The
   * page after it is read from the index at once, however deep; not with `search` (ranked).
   */
  cursor: ZFileCursor.optional(),
});

/** Whether the text of a file's current version was read for search (shown on its detail page). */
export const ZTextStatus = z.object({
  file: ZFileBrief,
  version_id: z.number().int().nullable(),
  version_number: z.number().int().nullable(),
  /** null: not looked at yet (the job is queued). */
  status: z.enum(['pending', 'done', 'failed', 'unsupported']).nullable(),
  /** Why it failed or was not read, in a sentence. */
  error: z.string().nullable(),
  /** Only the first part of a very long text is searched. */
  truncated: z.boolean(),
  extracted_at: z.string().nullable(),
  /** Text recognition (OCR) of images and scanned pages: when it ran, on how many pages; null: it did not. */
  recognition: z.object({ at: z.string(), pages: z.number().int(), languages: z.string() }).nullable(),
  /** The current version is an image or a PDF, so an editor may ask for recognition again. */
  recognisable: z.boolean(),
});
export type TTextStatus = z.infer<typeof ZTextStatus>;

export const ZTextMarksQuery = z.object({
  /** 1-based, as a search hit names it. */
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  /** The words to mark, separated by spaces (the search's text); at most 10 are marked. */
  words: ZSearchText,
});

/** Where a search's words are on a page whose text was recognised (the file page marks them). */
export const ZTextMarks = z.object({
  version_id: z.number().int().nullable(),
  page: z.number().int(),
  /** The words looked for, as compared (lower case, letters and digits). */
  words: z.array(z.string()),
  /** Word boxes were kept for this version (text recognition ran); false: none to mark. */
  recognised: z.boolean(),
  /** One box per matching word, as fractions (0 to 1) of the page's width and height from its top left. */
  marks: z.array(z.object({ x: z.number(), y: z.number(), width: z.number(), height: z.number() })),
});
export type TTextMarks = z.infer<typeof ZTextMarks>;

export const dashboardAndSearchContract = {
  dashboardTable: endpoint({
    method: 'GET',
    path: '/api/dashboard/table',
    guard: 'signedIn',
    summary:
      "The signed-in user's dashboard: files previewed last, checked out, recently changed, and workflow steps waiting on them",
    query: ZDashboardQuery,
    response: ZDashboard,
  }),
  allSearchFiles: endpoint({
    method: 'GET',
    path: '/api/all-search-files',
    guard: 'signedIn',
    summary:
      'Search results: files matching by name, metadata, tags, comments or content, ranked, with the matching passage (100 per page)',
    query: ZSearchQuery(100),
    response: ZFoundPage,
  }),
  searchFiles: endpoint({
    method: 'GET',
    path: '/api/search-files',
    guard: 'signedIn',
    summary: 'Header search suggestions: the best matching files (partial words match names)',
    query: ZSearchQuery(8),
    response: ZFoundPage,
  }),
  filterAttributes: endpoint({
    method: 'GET',
    path: '/api/filter-attributes',
    guard: 'signedIn',
    summary:
      'What the caller can filter files on: categories, metadata fields and values, owners, workflow steps',
    response: ZFilterAttributes,
  }),
  filterFiles: endpoint({
    method: 'POST',
    path: '/api/filter-files',
    guard: 'signedIn',
    reads: true,
    summary:
      'Files matching every filter given (category, dates, metadata values, owner, workflow step, locked, checked out) and the search text',
    query: ZFilterFilesQuery,
    body: ZFilterFilesBody,
    response: ZFoundPage,
  }),
  textStatus: endpoint({
    method: 'GET',
    path: '/api/search/text-status/{id}',
    guard: 'signedIn',
    object: { file: 'view' },
    summary: "Whether the text of a file's current version was read for search, or why not",
    params: ZIdParams,
    response: ZTextStatus,
    extension: true,
  }),
  textMarks: endpoint({
    method: 'GET',
    path: '/api/search/text-marks/{id}',
    guard: 'signedIn',
    object: { file: 'view' },
    summary:
      "Where words are on a recognised page of a file's current version (text recognition's word boxes), to mark a search's words in the preview",
    params: ZIdParams,
    query: ZTextMarksQuery,
    response: ZTextMarks,
    extension: true,
  }),
  recognizeText: endpoint({
    method: 'POST',
    path: '/api/search/text-recognition/{id}',
    guard: 'signedIn',
    object: { file: 'edit' },
    summary:
      "Recognise the text of a file's current version (an image or a PDF) again, in the background; answers its text status",
    params: ZIdParams,
    response: ZTextStatus,
    extension: true,
  }),
};
