import { ITEM_LABEL_MAX, VALUE_LIST_KEY_MAX } from '@quire/contract';
import type { FieldError } from '../../lib/errors.js';
import { excel } from '../../lib/load-later.js';
import { readFirstSheet, UnreadableSpreadsheetError } from '../../lib/spreadsheet.js';
import { notASpreadsheet } from './value-list.errors.js';

// The value-list spreadsheet: the template, and reading one back into items. First sheet,
// header row with `label` and optionally `key` (any order, any letter case); each row below
// is one item. Every cell is text as written: a cell starting with = + - @ is a label like
// any other (a formula's text, never its result).

export interface ItemRow {
  row: number;
  key: number | null;
  label: string;
}

/** At most as many rows as there are keys; errors listed at most this many times. */
const MAX_ROWS = VALUE_LIST_KEY_MAX;
const MAX_ERRORS = 200;

export async function buildTemplate(): Promise<Buffer> {
  const workbook = new (excel().Workbook)();
  workbook.creator = 'Quire';
  const sheet = workbook.addWorksheet('Items');
  sheet.columns = [
    { header: 'key', key: 'key', width: 10 },
    { header: 'label', key: 'label', width: 40 },
  ];
  sheet.addRow({ key: 1, label: 'First item (the key may be left empty: a free one is chosen)' });
  sheet.addRow({ key: null, label: 'Second item' });
  sheet.getRow(1).font = { bold: true };
  sheet.views = [{ state: 'frozen', ySplit: 1 }];
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

/**
 * The items of a spreadsheet, in order, with every problem named by row: a missing column,
 * an empty row or label, a bad or repeated key, a repeated label (any letter case). A file
 * that is not a readable .xlsx is a 400 (thrown).
 */
export async function readItemsSheet(content: Buffer): Promise<{ rows: ItemRow[]; errors: FieldError[] }> {
  let sheet: Awaited<ReturnType<typeof readFirstSheet>>;
  try {
    sheet = await readFirstSheet(content, { maxRows: MAX_ROWS, maxColumns: 50 });
  } catch (err) {
    if (err instanceof UnreadableSpreadsheetError) throw notASpreadsheet();
    throw err;
  }
  const errors: FieldError[] = [];
  const header = sheet.header;
  if (!header) return { rows: [], errors: [{ path: 'row 1', message: 'The spreadsheet is empty' }] };
  const names = header.cells.map((c) => c.trim().toLowerCase());
  const labelAt = names.indexOf('label');
  const keyAt = names.indexOf('key');
  if (labelAt < 0)
    return { rows: [], errors: [{ path: `row ${header.row}.label`, message: 'Missing column "label"' }] };

  const rows: ItemRow[] = [];
  const byLabel = new Map<string, number>();
  const byKey = new Map<number, number>();
  let expected = header.row + 1;
  for (const line of sheet.rows) {
    if (line.row === expected + 1)
      errors.push({ path: `row ${expected}`, message: 'The row is empty: fill it in or remove it' });
    else if (line.row > expected)
      errors.push({
        path: `row ${expected}`,
        message: `Rows ${expected} to ${line.row - 1} are empty: fill them in or remove them`,
      });
    expected = line.row + 1;
    const at = `row ${line.row}`;
    const label = line.cells[labelAt] ?? '';
    const keyText = keyAt >= 0 ? (line.cells[keyAt] ?? '') : '';
    let key: number | null = null;
    if (keyText !== '') {
      const n = /^\d+(\.0+)?$/.test(keyText) ? Number.parseInt(keyText, 10) : Number.NaN;
      if (!Number.isInteger(n) || n < 1 || n > VALUE_LIST_KEY_MAX)
        errors.push({
          path: `${at}.key`,
          message: `A key is a whole number from 1 to ${VALUE_LIST_KEY_MAX}`,
        });
      else {
        const twin = byKey.get(n);
        if (twin) errors.push({ path: `${at}.key`, message: `Key ${n} is also in row ${twin}` });
        else byKey.set(n, line.row);
        key = n;
      }
    }
    if (label === '') errors.push({ path: `${at}.label`, message: 'The label is empty' });
    else if (label.length > ITEM_LABEL_MAX)
      errors.push({ path: `${at}.label`, message: `Use at most ${ITEM_LABEL_MAX} characters` });
    else {
      const twin = byLabel.get(label.toLowerCase());
      if (twin) errors.push({ path: `${at}.label`, message: `"${label}" is also in row ${twin}` });
      else byLabel.set(label.toLowerCase(), line.row);
    }
    rows.push({ row: line.row, key, label });
  }
  if (sheet.overLimit)
    errors.push({
      path: `row ${(sheet.rows.at(-1)?.row ?? header.row) + 1}`,
      message: `A value list holds at most ${MAX_ROWS} items`,
    });
  if (!rows.length)
    errors.push({ path: `row ${header.row + 1}`, message: 'There are no items below the header row' });
  if (errors.length > MAX_ERRORS) {
    const more = errors.length - MAX_ERRORS;
    errors.length = MAX_ERRORS;
    errors.push({ path: 'file', message: `and ${more} more problems` });
  }
  return { rows, errors };
}
