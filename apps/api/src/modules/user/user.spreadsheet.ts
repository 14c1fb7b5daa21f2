import {
  ACCESS_TYPE_LABELS,
  ACCESS_TYPES,
  LOGIN_ROLES,
  USER_IMPORT_COLUMNS,
  USER_IMPORT_MAX_ROWS,
  VENDOR_ADMIN,
} from '@quire/contract';
import type { FieldError } from '../../lib/errors.js';
import { excel } from '../../lib/load-later.js';
import { readFirstSheet, UnreadableSpreadsheetError } from '../../lib/spreadsheet.js';

// The user import spreadsheet: the template, and reading one back into rows of text.

export type ImportColumn = (typeof USER_IMPORT_COLUMNS)[number];
export type SheetRow = { row: number } & Record<ImportColumn, string>;

const EXAMPLE = {
  username: 'jdoe',
  email: 'jane.doe@example.com',
  first_name: 'Jane',
  last_name: 'Doe',
  access_type: 'General Staff',
  role: 'user',
  password: 'Choose-a-long-passphrase-1',
};

/**
 * The template: the first sheet ("Users", the one that is imported) holds only the header
 * row; an example row and the allowed values are on sheets of their own, so nothing needs
 * deleting before an import.
 */
export async function buildTemplate(): Promise<Buffer> {
  const workbook = new (excel().Workbook)();
  workbook.creator = 'Quire';
  const columns = USER_IMPORT_COLUMNS.map((key) => ({ header: key, key, width: key === 'email' ? 30 : 20 }));
  const sheet = workbook.addWorksheet('Users');
  sheet.columns = columns;
  sheet.getRow(1).font = { bold: true };
  sheet.views = [{ state: 'frozen', ySplit: 1 }];

  const example = workbook.addWorksheet('Example (not imported)');
  example.columns = columns;
  example.addRow(EXAMPLE);
  example.getRow(1).font = { bold: true };
  example.addRow([]);
  example.addRow([
    `Only the first sheet ("Users") is imported: one user a row below its header, at most ${USER_IMPORT_MAX_ROWS} users.`,
  ]);

  const values = workbook.addWorksheet('Allowed values');
  values.columns = [
    { header: 'access_type', key: 'access_type', width: 28 },
    { header: 'shown as', key: 'label', width: 28 },
    { header: 'role', key: 'role', width: 10 },
  ];
  const types = ACCESS_TYPES.filter((t) => t !== VENDOR_ADMIN);
  types.forEach((t, i) => {
    values.addRow({ access_type: t, label: ACCESS_TYPE_LABELS[t], role: LOGIN_ROLES[i] ?? '' });
  });
  values.getRow(1).font = { bold: true };
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

export type ReadResult =
  | { kind: 'unreadable' }
  | { kind: 'tooManyRows' }
  | { kind: 'rows'; rows: SheetRow[]; errors: FieldError[] };

/**
 * The rows of the first sheet, as text, keyed by the header row's column names (any order,
 * any letter case). `errors` names missing columns (`row 1.email`) and an empty sheet; a sheet
 * with more than USER_IMPORT_MAX_ROWS users is not read past that.
 */
export async function readSheet(content: Buffer): Promise<ReadResult> {
  let sheet: Awaited<ReturnType<typeof readFirstSheet>>;
  try {
    sheet = await readFirstSheet(content, { maxRows: USER_IMPORT_MAX_ROWS, maxColumns: 64 });
  } catch (err) {
    if (err instanceof UnreadableSpreadsheetError) return { kind: 'unreadable' };
    throw err;
  }
  if (sheet.overLimit) return { kind: 'tooManyRows' };
  const headerRow = sheet.header?.row ?? 1;
  const columnOf = new Map<ImportColumn, number>();
  (sheet.header?.cells ?? []).forEach((text, col) => {
    const name = text.toLowerCase().replace(/\s+/g, '_') as ImportColumn;
    if ((USER_IMPORT_COLUMNS as readonly string[]).includes(name) && !columnOf.has(name))
      columnOf.set(name, col);
  });
  const errors: FieldError[] = USER_IMPORT_COLUMNS.filter((c) => !columnOf.has(c)).map((c) => ({
    path: `row ${headerRow}.${c}`,
    message: `Missing column "${c}"`,
  }));
  if (errors.length) return { kind: 'rows', rows: [], errors };

  const rows: SheetRow[] = [];
  for (const line of sheet.rows) {
    const values = Object.fromEntries(
      USER_IMPORT_COLUMNS.map((c) => [c, line.cells[columnOf.get(c)!] ?? '']),
    ) as Record<ImportColumn, string>;
    if (Object.values(values).every((v) => v === '')) continue;
    rows.push({ row: line.row, ...values });
  }
  if (!rows.length)
    errors.push({
      path: `row ${headerRow + 1}`,
      message: 'The spreadsheet has no users below the header row',
    });
  return { kind: 'rows', rows, errors };
}
