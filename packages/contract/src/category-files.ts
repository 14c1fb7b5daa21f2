import { z } from 'zod';
import { XLSX_MEDIA_TYPE, ZId, ZIdParams, ZPageMeta, zLine } from './common.js';
import { ZFileCursor } from './dashboard-and-search.js';
import { ZFieldValue, ZFileSummary } from './file.js';
import { endpoint } from './http.js';

// A category's files (spec §7 "Category": fileIncategory, fileIncategory_export). These are
// `category` calls built with the files; their entries join the category contract's under
// the `category` key of `contract` (index.ts).

const ZDay = z.iso.date();

/** `?page&quantity&search&startDate&endDate&fieldId&fieldName`: the spec's file list query. */
export const ZCategoryFilesQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  quantity: z.coerce.number().int().min(1).max(500).default(20),
  /** In the name or the running number. */
  search: zLine().trim().max(255).optional(),
  /** Filed on or after this day (YYYY-MM-DD). */
  startDate: ZDay.optional(),
  /** Filed on or before this day. */
  endDate: ZDay.optional(),
  /** With fieldName: files whose value of this metadata field matches fieldName. */
  fieldId: ZId.optional(),
  fieldName: zLine().trim().max(255).optional(),
  /**
   * Keyset paging (an extension of the spec's page): the `next_cursor` of the page before. The
   * page after it is read from the category's index at once, however deep; `page` then only
   * names it.
   */
  cursor: ZFileCursor.optional(),
});

/** The POST form: the same filters, and several metadata filters at once. */
export const ZCategoryFilesBody = ZCategoryFilesQuery.extend({
  fields: z
    .array(z.object({ fieldId: ZId, fieldName: zLine().trim().min(1).max(255) }))
    .max(20)
    .optional(),
});

export const ZCategoryFileRow = ZFileSummary.extend({ values: z.array(ZFieldValue) });
export type TCategoryFileRow = z.infer<typeof ZCategoryFileRow>;

export const ZCategoryFilesPage = ZPageMeta.extend({
  folder: z.object({ id: z.number().int(), name: z.string() }),
  /** The metadata fields shown as columns. */
  columns: z.array(z.object({ field_id: z.number().int(), name: z.string(), type: z.string() })),
  items: z.array(ZCategoryFileRow),
  /** An extension: the `cursor` of the page after this one; null when this page is not full. */
  next_cursor: ZFileCursor.nullable().optional(),
});
export type TCategoryFilesPage = z.infer<typeof ZCategoryFilesPage>;

export const categoryFilesContract = {
  fileIncategory: endpoint({
    method: 'GET',
    path: '/api/fileIncategory/{id}',
    guard: 'signedIn',
    object: { category: 'view' },
    summary: 'The indexed files of a category you may see, newest first, filtered',
    params: ZIdParams,
    query: ZCategoryFilesQuery,
    response: ZCategoryFilesPage,
  }),
  fileIncategoryFilter: endpoint({
    method: 'POST',
    path: '/api/fileIncategory/{id}',
    guard: 'signedIn',
    reads: true,
    object: { category: 'view' },
    summary: 'The same list with the filters in the body (several metadata filters in `fields`)',
    params: ZIdParams,
    body: ZCategoryFilesBody,
    response: ZCategoryFilesPage,
  }),
  fileIncategoryExport: endpoint({
    method: 'GET',
    path: '/api/fileIncategory_export/{id}',
    guard: 'signedIn',
    object: { category: 'view' },
    produces: 'file',
    mediaType: XLSX_MEDIA_TYPE,
    summary: 'The filtered list as a spreadsheet, "Files in category {id}.xlsx"',
    params: ZIdParams,
    query: ZCategoryFilesQuery.omit({ page: true, quantity: true, cursor: true }),
  }),
};
