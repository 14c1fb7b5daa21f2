import { PassThrough } from 'node:stream';
import type { TCategoryFilesPage, TFieldValue } from '@quire/contract';
import { type Actor, audit } from '../../lib/audit.js';
import type { Deps } from '../../lib/deps.js';
import { excel } from '../../lib/load-later.js';
import { type PageQuery, pageMeta } from '../../lib/paging.js';
import type { AuthContext } from '../../lib/session.js';
import { inertRow, sheetColumns } from '../../lib/spreadsheet-cells.js';
import { scopeOf } from '../../lib/visibility.js';
import { categoryNotFound } from '../file/file.errors.js';
import { showValue } from '../file/file.metadata.js';
import { type CategoryFilter, categoryFileBatches, categoryFilesPage } from '../file/file-lists.service.js';
import { liveCategoryFields } from './category.service.js';

// A category's file list (GET and POST fileIncategory/{id}) and its export: live, indexed
// files the caller may see, newest first, filtered in SQL.

interface CategoryFilesInput {
  search?: string;
  startDate?: string;
  endDate?: string;
  fieldId?: number;
  fieldName?: string;
  fields?: Array<{ fieldId: number; fieldName: string }>;
}

function toFilter(q: CategoryFilesInput): CategoryFilter {
  const fields: CategoryFilter['fields'] = [...(q.fields ?? [])];
  if (q.fieldId) fields.push({ fieldId: q.fieldId, fieldName: q.fieldName });
  return { search: q.search || undefined, startDate: q.startDate, endDate: q.endDate, fields };
}

/** The category's name and its list columns (one statement). */
async function columnsOf(deps: Deps, categoryId: number) {
  const category = await liveCategoryFields(deps.db, categoryId);
  if (!category) throw categoryNotFound();
  return { category, fields: category.fields.filter((f) => f.showInList) };
}

export async function categoryFiles(
  deps: Deps,
  auth: AuthContext,
  categoryId: number,
  q: PageQuery & CategoryFilesInput & { cursor?: string },
): Promise<TCategoryFilesPage> {
  // The columns are read while the caller's sets and the page are (all beside the category's
  // guard: lib/route.ts readOnlyRun); the values wait for the columns' field ids.
  const columns = columnsOf(deps, categoryId);
  const fieldIds = columns.then((c) => c.fields.map((f) => f.fieldId));
  // The page awaits the field ids only after its rows: their failure (a category gone or out
  // of sight) is the columns' own, answered by Promise.all below, not left unhandled.
  fieldIds.catch(() => {});
  const [{ category, fields }, { items, total, next_cursor }] = await Promise.all([
    columns,
    categoryFilesPage(deps.db, scopeOf(auth), categoryId, toFilter(q), q, fieldIds),
  ]);
  return {
    ...pageMeta(q, total),
    next_cursor,
    folder: { id: category.id, name: category.name },
    columns: fields.map((f) => ({ field_id: f.fieldId, name: f.name, type: f.type })),
    items: items.map(({ summary, values }) => {
      const mine = new Map(values.map((v) => [v.fieldId, v]));
      return { ...summary, values: fields.map((f): TFieldValue => showValue(f, mine.get(f.fieldId))) };
    }),
  };
}

/**
 * The filtered list as .xlsx, written while it is read (rows in batches, the workbook
 * streamed), so a large category never sits in memory whole.
 */
export async function exportCategoryFiles(
  deps: Deps,
  auth: AuthContext,
  actor: Actor,
  categoryId: number,
  q: CategoryFilesInput,
) {
  const { category, fields } = await columnsOf(deps, categoryId);
  const filter = toFilter(q);
  await audit(deps.db, actor, {
    type: 'category',
    action: 'category.files_exported',
    message: `Exported the files of "${category.name}"`,
    targetType: 'category',
    targetId: categoryId,
    details: { filter: { ...filter } },
  });
  const stream = new PassThrough();
  const book = new (excel().stream.xlsx.WorkbookWriter)({ stream, useStyles: true });
  const sheet = book.addWorksheet('Files');
  sheet.columns = sheetColumns([
    ['Number', 'number', 14],
    ['Name', 'name', 40],
    ['Owner', 'owner', 24],
    ['Version', 'version', 10],
    ['Type', 'type', 24],
    ['Size (bytes)', 'size', 14],
    ['Filed', 'filed', 26],
    ...fields.map((f) => [f.name, `f${f.fieldId}`, 24] as const),
  ]);
  const write = async () => {
    const fieldIds = fields.map((f) => f.fieldId);
    for await (const batch of categoryFileBatches(deps.db, scopeOf(auth), categoryId, filter, fieldIds)) {
      for (const { summary: s, values } of batch) {
        const mine = new Map(values.map((v) => [v.fieldId, v]));
        const row: Record<string, string | number> = {
          number: s.incremental ?? '',
          name: s.name,
          owner: s.owner.name,
          version: s.version,
          type: s.mime_type,
          size: s.size,
          filed: s.created_at,
        };
        for (const f of fields) row[`f${f.fieldId}`] = showValue(f, mine.get(f.fieldId)).display;
        // Text that a spreadsheet would run as a formula (=HYPERLINK(…)) is written as text.
        sheet.addRow(inertRow(row)).commit();
      }
    }
    sheet.commit();
    await book.commit();
  };
  write().catch((err) => stream.destroy(err as Error));
  return { stream, filename: `Files in category ${categoryId}.xlsx` };
}
