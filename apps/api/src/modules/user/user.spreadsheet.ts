import {
  ACCESS_TYPE_LABELS,
  ACCESS_TYPES,
  LOGIN_ROLES,
  USER_IMPORT_COLUMNS,
  VENDOR_ADMIN,
} from '@quire/contract';
import ExcelJS from 'exceljs';
import type { FieldError } from '../../lib/errors.js';

// The user import spreadsheet: the template, and reading one back into rows of text.

export type ImportColumn = (typeof USER_IMPORT_COLUMNS)[number];
export type SheetRow = { row: number } & Record<ImportColumn, string>;

export const MAX_IMPORT_ROWS = 1000;
const XLSX_MAGIC = Buffer.from([0x50, 0x4b, 0x03, 0x04]);

export async function buildTemplate(): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  workbook.creator = 'Quire';
  const sheet = workbook.addWorksheet('Users');
  sheet.columns = USER_IMPORT_COLUMNS.map((key) => ({ header: key, key, width: key === 'email' ? 30 : 20 }));
  sheet.addRow({
    username: 'jdoe',
    email: 'jane.doe@example.com',
    first_name: 'Jane',
    last_name: 'Doe',
    access_type: 'General staff',
    role: 'user',
    password: 'Choose-a-long-passphrase-1',
  });
  sheet.getRow(1).font = { bold: true };
  sheet.views = [{ state: 'frozen', ySplit: 1 }];

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

/**
 * The rows of the first sheet, as text, keyed by the header row's column names (any order,
 * any letter case). Returns null when the content is not a readable .xlsx; `errors` names
 * missing columns (`row 1.email`) and a sheet over the row limit.
 */
export async function readSheet(content: Buffer): Promise<{ rows: SheetRow[]; errors: FieldError[] } | null> {
  if (!content.subarray(0, 4).equals(XLSX_MAGIC)) return null;
  const workbook = new ExcelJS.Workbook();
  try {
    await workbook.xlsx.load(content as unknown as ExcelJS.Buffer);
  } catch {
    return null;
  }
  const sheet = workbook.worksheets[0];
  if (!sheet) return null;

  const columnOf = new Map<ImportColumn, number>();
  sheet.getRow(1).eachCell((cell, col) => {
    const name = cell.text.trim().toLowerCase().replace(/\s+/g, '_') as ImportColumn;
    if ((USER_IMPORT_COLUMNS as readonly string[]).includes(name) && !columnOf.has(name))
      columnOf.set(name, col);
  });
  const errors: FieldError[] = USER_IMPORT_COLUMNS.filter((c) => !columnOf.has(c)).map((c) => ({
    path: `row 1.${c}`,
    message: `Missing column "${c}"`,
  }));
  if (errors.length) return { rows: [], errors };

  const rows: SheetRow[] = [];
  for (let r = 2; r <= sheet.rowCount; r += 1) {
    const row = sheet.getRow(r);
    const values = Object.fromEntries(
      USER_IMPORT_COLUMNS.map((c) => [c, row.getCell(columnOf.get(c)!).text.trim()]),
    ) as Record<ImportColumn, string>;
    if (Object.values(values).every((v) => v === '')) continue;
    rows.push({ row: r, ...values });
  }
  if (rows.length > MAX_IMPORT_ROWS) {
    errors.push({
      path: `row ${rows[MAX_IMPORT_ROWS]!.row}`,
      message: `At most ${MAX_IMPORT_ROWS} users per import`,
    });
  }
  if (!rows.length)
    errors.push({ path: 'row 2', message: 'The spreadsheet has no users below the header row' });
  return { rows, errors };
}
