import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { workbook } from '../../../test/xlsx.js';
import { EXTRACT_LIMITS, ExtractionFailed, extractText } from './text-extraction.js';

// The XLSX path of the extraction child: the same bounded reader as the imports
// (lib/spreadsheet.ts), imported by the child as TypeScript.

describe('extractText (xlsx)', () => {
  it('reads every sheet as lines of cell text, formulas by their cached result', async () => {
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('Invoices');
    ws.addRow(['Supplier', 'Amount']);
    ws.addRow(['Acme Ltd', 120]);
    ws.getCell('C2').value = { formula: 'B2*2', result: 240 };
    wb.addWorksheet('Notes').addRow(['Paid in March']);
    const out = await extractText(Buffer.from(await wb.xlsx.writeBuffer()), 'xlsx');
    expect(out.text).toBe('Supplier Amount\nAcme Ltd 120 240\nPaid in March');
    expect(out.truncated).toBe(false);
  });

  it('stops at maxChars and says so', async () => {
    const rows = Array.from(
      { length: 50 },
      (_, i) => `<row r="${i + 1}"><c r="A${i + 1}" t="inlineStr"><is><t>row ${i}</t></is></c></row>`,
    );
    const out = await extractText(workbook(rows.join('')), 'xlsx', { ...EXTRACT_LIMITS, maxChars: 20 });
    expect(out.text.length).toBeLessThanOrEqual(20);
    expect(out.text.startsWith('row 0\nrow 1')).toBe(true);
    expect(out.truncated).toBe(true);
  });

  it("fails a zip bomb with the reader's reason, not the server", async () => {
    const bomb = workbook(`${' '.repeat(70 * 1024 * 1024)}<row r="1"/>`);
    await expect(extractText(bomb, 'xlsx')).rejects.toThrow(ExtractionFailed);
    await expect(extractText(bomb, 'xlsx')).rejects.toThrow(/too large to read/);
  });
});
