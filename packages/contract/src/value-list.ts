import { z } from 'zod';
import {
  excelImportFields,
  XLSX_MEDIA_TYPE,
  ZExcelImport,
  ZId,
  ZIdParams,
  ZNull,
  ZText,
  zMultiline,
} from './common.js';
import { endpoint } from './http.js';

// Value lists (spec §7 "Value list"): ordered items with a key and a label, the choices of a
// `select` metadata field. Made by hand or from an Excel file. File Control admins write
// them; the items of a list are read by every signed-in user (indexing needs them).

/** Item keys are 1..VALUE_LIST_KEY_MAX (spec §9: "a random key of up to 10000"). */
export const VALUE_LIST_KEY_MAX = 10000;
export const ZItemKey = z
  .number()
  .int('A key is a whole number')
  .min(1, `A key is 1 to ${VALUE_LIST_KEY_MAX}`)
  .max(VALUE_LIST_KEY_MAX, `A key is 1 to ${VALUE_LIST_KEY_MAX}`);
export const ITEM_LABEL_MAX = 255;
const ZLabel = ZText(ITEM_LABEL_MAX);

export const ZValueListItem = z.object({
  id: z.number().int(),
  key: z.number().int(),
  label: z.string(),
  position: z.number().int(),
});
export type TValueListItem = z.infer<typeof ZValueListItem>;

export const ZValueList = z.object({
  id: z.number().int(),
  name: z.string(),
  description: z.string(),
  /** How the items were last filled. */
  source: z.enum(['manual', 'excel']),
  item_count: z.number().int(),
  /** The metadata fields choosing from this list. */
  fields: z.array(z.object({ id: z.number().int(), name: z.string() })),
  created_at: z.string(),
  updated_at: z.string(),
});
export type TValueList = z.infer<typeof ZValueList>;

export const ZValueListDetail = ZValueList.extend({ items: z.array(ZValueListItem) });
export type TValueListDetail = z.infer<typeof ZValueListDetail>;

/** An item as a form sends it: `id` for an item kept, no `key` for a random free one. */
export const ZItemInput = z.object({ id: ZId.optional(), key: ZItemKey.optional(), label: ZLabel });
export type TItemInput = z.output<typeof ZItemInput>;

const ZItems = z.array(ZItemInput).max(VALUE_LIST_KEY_MAX);
const ZDescription = zMultiline().trim().max(1000);

export const ZCreateValueListBody = z.object({
  name: ZText(100),
  description: ZDescription.optional(),
  items: ZItems.default([]),
});

/** `items`, when given, is the whole list in order: items left out are removed (archived when in use). */
export const ZEditValueListBody = z.object({
  name: ZText(100).optional(),
  description: ZDescription.optional(),
  items: ZItems.optional(),
});

/** Columns of the import spreadsheet (row 1 is the header); `key` may be left empty. */
export const VALUE_LIST_IMPORT_COLUMNS = ['key', 'label'] as const;
export const VALUE_LIST_IMPORT_MAX_BYTES = 5 * 1024 * 1024;

/** Multipart fields of an import: the list's name and description, `dry_run` and `file` (.xlsx). */
export const ZCreateFromExcelUpload = z.object({
  name: ZText(100),
  description: ZDescription.optional(),
  ...excelImportFields,
});
export const ZEditFromExcelUpload = z.object({
  name: ZText(100).optional(),
  description: ZDescription.optional(),
  ...excelImportFields,
});

export const ZValueListImport = ZExcelImport(
  { key: z.number().int().nullable(), label: z.string() },
  /** The list as saved; null on a dry run or when the file has errors. */
  { value_list: ZValueListDetail.nullable() },
);
export type TValueListImport = z.infer<typeof ZValueListImport>;

/** What both spreadsheet imports share: a File Control write of one .xlsx part, answered alike. */
const excelImport = {
  guard: { area: 'fileControl', access: 'write' },
  consumes: 'multipart',
  upload: { field: 'file' },
  response: ZValueListImport,
} as const;

export const valueListContract = {
  valueLists: endpoint({
    method: 'GET',
    path: '/api/valuelist',
    guard: { area: 'fileControl', access: 'read' },
    summary: 'Every value list by name, with its item count and the fields that use it',
    response: z.array(ZValueList),
  }),
  valueList: endpoint({
    method: 'GET',
    path: '/api/valuelist/{id}',
    guard: { area: 'fileControl', access: 'read' },
    summary: 'One value list with its items in order',
    params: ZIdParams,
    response: ZValueListDetail,
  }),
  valueListItems: endpoint({
    method: 'GET',
    path: '/api/valuelist-items/{id}',
    guard: 'signedIn',
    summary: 'The items of a value list in order (the choices of a value-list field)',
    params: ZIdParams,
    response: z.array(ZValueListItem),
  }),
  createValueList: endpoint({
    method: 'POST',
    path: '/api/create_value_list',
    guard: { area: 'fileControl', access: 'write' },
    summary:
      'Create a value list with items in order; an item without a key gets a random free key from 1 to 10000',
    body: ZCreateValueListBody,
    response: ZValueListDetail,
  }),
  editValueList: endpoint({
    method: 'PUT',
    path: '/api/edit_value_list/{id}',
    guard: { area: 'fileControl', access: 'write' },
    summary:
      'Rename or describe a value list; `items` replaces the items in order (kept by `id`; one a file uses is archived, not deleted)',
    params: ZIdParams,
    body: ZEditValueListBody,
    response: ZValueListDetail,
  }),
  createValueListFromExcel: endpoint({
    ...excelImport,
    method: 'POST',
    path: '/api/create_value_list_from_excel',
    summary:
      'Create a value list from an .xlsx (first sheet, header row `key`, `label`): all or nothing, each problem named by row; `dry_run=true` previews',
    body: ZCreateFromExcelUpload,
  }),
  editValueListFromExcel: endpoint({
    ...excelImport,
    method: 'PUT',
    path: '/api/edit_value_list_from_excel/{id}',
    summary:
      "Replace a value list's items from an .xlsx (same columns; rows keep the item of the same key, else of the same label): all or nothing; `dry_run=true` previews",
    params: ZIdParams,
    body: ZEditFromExcelUpload,
  }),
  destroyValueList: endpoint({
    method: 'DELETE',
    path: '/api/destroyValueList/{id}',
    guard: { area: 'fileControl', access: 'write' },
    summary: 'Delete a value list no metadata field uses (409 names the fields)',
    params: ZIdParams,
    response: ZNull,
  }),
  importTemplate: endpoint({
    method: 'GET',
    path: '/api/valuelist-template',
    guard: { area: 'fileControl', access: 'read' },
    produces: 'file',
    mediaType: XLSX_MEDIA_TYPE,
    extension: true,
    summary: 'The .xlsx template for a value-list import (header row `key`, `label` and two examples)',
  }),
};
