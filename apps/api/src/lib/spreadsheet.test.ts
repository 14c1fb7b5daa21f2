import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { rowXml, workbook } from '../../test/xlsx.js';
import { eachSheetLine, readFirstSheet, UnreadableSpreadsheetError } from './spreadsheet.js';

const options = { maxRows: 1000, maxColumns: 10 };

describe('readFirstSheet', () => {
  it('reads a workbook written by a spreadsheet program: header, rows with their numbers, empty rows skipped', async () => {
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('People');
    ws.addRow(['name', 'count', 'ok']);
    ws.addRow(['Ada', 3, true]);
    ws.addRow([]);
    ws.addRow(['  Grace  ', 1.5, false]);
    ws.getCell('D4').value = { formula: 'B4*2', result: 3 };
    wb.addWorksheet('Other').addRow(['not read']);
    const sheet = await readFirstSheet(Buffer.from(await wb.xlsx.writeBuffer()), options);
    expect(sheet.header).toEqual({ row: 1, cells: ['name', 'count', 'ok'] });
    expect(sheet.rows).toEqual([
      { row: 2, cells: ['Ada', '3', 'TRUE'] },
      { row: 4, cells: ['Grace', '1.5', 'FALSE', '=B4*2'] },
    ]);
    expect(sheet.overLimit).toBe(false);
  });

  it('takes the first sheet in the workbook order, with shared strings', async () => {
    const file = workbook('<row r="1"><c r="A1" t="s"><v>1</v></c><c r="C1" t="s"><v>0</v></c></row>', {
      sharedStrings: ['second', 'first'],
      extraSheets: { Later: rowXml(1, ['later sheet']) },
    });
    const sheet = await readFirstSheet(file, options);
    expect(sheet.header).toEqual({ row: 1, cells: ['first', '', 'second'] });
  });

  it('reads cells that start with = + - @ as the text they hold', async () => {
    const file = workbook(rowXml(1, ['h']) + rowXml(2, ['=HYPERLINK("x")', '+1', '-2', '@SUM(A1)']));
    const sheet = await readFirstSheet(file, options);
    expect(sheet.rows[0]?.cells).toEqual(['=HYPERLINK("x")', '+1', '-2', '@SUM(A1)']);
  });

  it('stops reading at the row cap and says so', async () => {
    const rows = Array.from({ length: 1500 }, (_, i) => rowXml(i + 2, [`user${i}`])).join('');
    const sheet = await readFirstSheet(workbook(rowXml(1, ['name']) + rows), options);
    expect(sheet.rows).toHaveLength(1000);
    expect(sheet.rows.at(-1)?.row).toBe(1001);
    expect(sheet.overLimit).toBe(true);
  });

  it('reads a row at r="3000000" under a declared dimension of a million rows as one row, at once', async () => {
    const file = workbook(rowXml(1, ['name']) + rowXml(3_000_000, ['far away']), {
      dimension: 'A1:XFD1048576',
    });
    const started = performance.now();
    const sheet = await readFirstSheet(file, options);
    expect(performance.now() - started).toBeLessThan(2000);
    expect(sheet.rows).toEqual([{ row: 3_000_000, cells: ['far away'] }]);
  });

  it('keeps only the columns asked for and caps a cell at 32,767 characters', async () => {
    const wide = `<row r="1"><c r="A1" t="inlineStr"><is><t>${'x'.repeat(40_000)}</t></is></c><c r="XFD1" t="inlineStr"><is><t>far</t></is></c></row>`;
    const sheet = await readFirstSheet(workbook(wide), options);
    expect(sheet.header?.cells).toHaveLength(1);
    expect(sheet.header?.cells[0]).toHaveLength(32_767);
  });

  it('refuses a zip bomb (a sheet that inflates past its ceiling) instead of reading it', async () => {
    const bomb = workbook(`${' '.repeat(70 * 1024 * 1024)}${rowXml(1, ['x'])}`);
    expect(bomb.length).toBeLessThan(200 * 1024);
    await expect(readFirstSheet(bomb, options)).rejects.toBeInstanceOf(UnreadableSpreadsheetError);
  });

  it('refuses what is not a workbook', async () => {
    await expect(readFirstSheet(Buffer.from('name,count\n'), options)).rejects.toBeInstanceOf(
      UnreadableSpreadsheetError,
    );
    await expect(
      readFirstSheet(Buffer.concat([Buffer.from([0x50, 0x4b, 3, 4]), Buffer.alloc(100)]), options),
    ).rejects.toBeInstanceOf(UnreadableSpreadsheetError);
    await expect(readFirstSheet(workbook('<row r="1"><c r="A1"'), options)).rejects.toBeInstanceOf(
      UnreadableSpreadsheetError,
    );
  });
});

describe('eachSheetLine (text extraction)', () => {
  const lines = async (file: Buffer, stopAfter = Number.POSITIVE_INFINITY) => {
    const out: string[][] = [];
    await eachSheetLine(file, (cells) => {
      out.push(cells);
      return out.length < stopAfter;
    });
    return out;
  };

  it('reads every sheet in workbook order, formulas as their cached result, empty rows skipped', async () => {
    const wb = new ExcelJS.Workbook();
    const first = wb.addWorksheet('People');
    first.addRow(['name', 'count']);
    first.addRow([]);
    first.addRow(['Ada', 3, true]);
    first.getCell('D3').value = { formula: 'B3*2', result: 6 };
    first.getCell('E3').value = { formula: 'A3&"!"', result: 'Ada!' };
    wb.addWorksheet('Other').addRow(['second sheet']);
    expect(await lines(Buffer.from(await wb.xlsx.writeBuffer()))).toEqual([
      ['name', 'count'],
      ['Ada', '3', 'TRUE', '6', 'Ada!'],
      ['second sheet'],
    ]);
  });

  it('resolves shared strings on every sheet and stops when told', async () => {
    const file = workbook('<row r="1"><c r="A1" t="s"><v>1</v></c><c r="C1" t="s"><v>0</v></c></row>', {
      sharedStrings: ['second', 'first'],
      extraSheets: { Later: `${rowXml(1, ['later sheet'])}${rowXml(2, ['never read'])}` },
    });
    expect(await lines(file)).toEqual([['first', 'second'], ['later sheet'], ['never read']]);
    expect(await lines(file, 2)).toEqual([['first', 'second'], ['later sheet']]);
  });

  it('refuses what the imports refuse: not a zip, a sheet that inflates past its ceiling', async () => {
    await expect(eachSheetLine(Buffer.from('not a workbook'), () => true)).rejects.toBeInstanceOf(
      UnreadableSpreadsheetError,
    );
    const bomb = workbook(`${' '.repeat(70 * 1024 * 1024)}${rowXml(1, ['x'])}`);
    await expect(eachSheetLine(bomb, () => true)).rejects.toThrow(/too large/);
  });
});
