import { createRequire } from 'node:module';
import type { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { SaxesTagPlain } from 'saxes';
import type { Entry, ZipFile } from 'yauzl';

// The XML and zip readers load with the first workbook read, not at start: an idle server
// stays small (issue 25; lib/load-later.ts does the same for the other rare packages, but
// this file may not import relatively, see below).
const require = createRequire(import.meta.url);
const xml = () => require('saxes') as typeof import('saxes');
const unzip = () => require('yauzl') as typeof import('yauzl');

// Reads .xlsx workbooks, bounded by what it reads: the first sheet for every spreadsheet
// import (users, value lists: readFirstSheet), and every sheet's text for the search's text
// extraction (eachSheetLine, run in the extraction child process).
// Over 400 lines on purpose: the zip, XML and sheet readers share one set of limits and one
// error; apart, each limit would be checked in two places. Nor can a part be a file of its
// own: this file may not import relatively (see below).
//
// A workbook is a zip of XML files. The sheet's XML is inflated and parsed as a stream, one
// chunk at a time, yielding to the event loop between chunks: rows are counted as they are
// met (the sheet's declared <dimension> and row numbers are never trusted as sizes), reading
// stops as soon as the data rows pass the cap, and only the cells of the first `maxColumns`
// columns are kept, each at most MAX_CELL_CHARS long. Shared strings are read afterwards and
// only those the kept cells name are kept. Every XML part has a ceiling on its inflated size,
// so a zip bomb ends in a refusal, not in memory.
//
// Cells are text exactly as stored: numbers as written in the file, booleans TRUE/FALSE, and a
// formula as `=` followed by the formula (its cached result is ignored) for imports, or as its
// cached result (what a person sees) for extraction. Nothing is evaluated.
//
// Plain erasable TypeScript (no enums, no parameter properties, no relative imports): the
// extraction child (extract-child.mjs) imports this file as it is, with Node's type stripping.

/** Excel's own limit on the text of one cell. */
const MAX_CELL_CHARS = 32_767;
const MAX_ENTRIES = 10_000;
const MAX_SMALL_PART_BYTES = 1024 * 1024;
const MAX_SHEET_BYTES = 64 * 1024 * 1024;
const MAX_SHARED_STRINGS_BYTES = 32 * 1024 * 1024;
const ZIP_MAGIC = Buffer.from([0x50, 0x4b, 0x03, 0x04]);
/** Excel's own limit on the columns of a sheet (XFD). */
const EXCEL_MAX_COLUMNS = 16_384;

interface SheetLine {
  /** The row number the file gives (1-based), or the one after the previous row. */
  row: number;
  /** Cell texts by column (0 = A), trimmed; '' where the row has no value. */
  cells: string[];
}

interface FirstSheet {
  /** The first row holding any text (normally row 1); null for an empty sheet. */
  header: SheetLine | null;
  /** The non-empty rows below the header, at most `maxRows`. */
  rows: SheetLine[];
  /** True when the sheet has more than `maxRows` non-empty rows below the header (reading stopped there). */
  overLimit: boolean;
}

export interface ReadOptions {
  /** Data rows (below the header) to read at most; one more makes `overLimit`. */
  maxRows: number;
  /** Columns kept, from A. */
  maxColumns: number;
}

/** The file is not a workbook this reader can read (not a zip, no sheet, broken XML, too large). */
export class UnreadableSpreadsheetError extends Error {
  override name = 'UnreadableSpreadsheetError';
}

/** Reads the first sheet of an .xlsx; throws UnreadableSpreadsheetError when it cannot. */
export async function readFirstSheet(content: Buffer, options: ReadOptions): Promise<FirstSheet> {
  const zip = await openWorkbook(content);
  try {
    const entries = await listEntries(zip);
    const [sheetPath] = await sheetPaths(zip, entries, 1);
    const sheetEntry = entries.get(sheetPath as string);
    if (!sheetEntry) throw new UnreadableSpreadsheetError(`no sheet at ${sheetPath}`);
    let header: RawLine | null = null;
    const rows: RawLine[] = [];
    let overLimit = false;
    const isEmpty = (l: RawLine) => l.cells.every((c) => typeof c === 'string' && c.trim() === '');
    const needed = await parseSheet(zip, sheetEntry, {
      maxColumns: options.maxColumns,
      formulas: 'written',
      // Returns false once the rows are over the limit: reading stops there.
      onRow: (line) => {
        if (isEmpty(line)) return true;
        if (!header) {
          header = line;
          return true;
        }
        if (rows.length >= options.maxRows) {
          overLimit = true;
          return false;
        }
        rows.push(line);
        return true;
      },
    });
    const shared = needed.size > 0 ? await sharedStrings(zip, entries, needed) : new Map<number, string>();
    const resolve = (line: RawLine): SheetLine => ({
      row: line.row,
      cells: line.cells.map((cell) => cellText(cell, shared).trim().slice(0, MAX_CELL_CHARS)),
    });
    const first = header as RawLine | null;
    return { header: first ? resolve(first) : null, rows: rows.map(resolve), overLimit };
  } finally {
    zip.close();
  }
}

/**
 * Every sheet's rows in workbook order, for text extraction: `onLine` gets the texts of a
 * row's non-empty cells (formulas as their cached result) and returns false to stop reading.
 * Shared strings are read first (the whole part, within its ceiling). Throws
 * UnreadableSpreadsheetError when the file cannot be read.
 */
export async function eachSheetLine(content: Buffer, onLine: (cells: string[]) => boolean): Promise<void> {
  const zip = await openWorkbook(content);
  try {
    const entries = await listEntries(zip);
    const paths = await sheetPaths(zip, entries, Number.POSITIVE_INFINITY);
    const shared = entries.has(await sharedStringsPath(zip, entries))
      ? await sharedStrings(zip, entries, 'all')
      : new Map<number, string>();
    for (const path of paths) {
      const entry = entries.get(path);
      if (!entry) continue;
      let more = true;
      await parseSheet(zip, entry, {
        maxColumns: EXCEL_MAX_COLUMNS,
        formulas: 'cached',
        onRow: (line) => {
          const cells = line.cells.map((cell) => cellText(cell, shared).trim()).filter((text) => text !== '');
          more = cells.length === 0 || onLine(cells);
          return more;
        },
      });
      if (!more) return;
    }
  } finally {
    zip.close();
  }
}

/** A raw cell's text: itself, or the shared string it names. */
const cellText = (cell: RawCell, shared: Map<number, string>) =>
  (typeof cell === 'number' ? (shared.get(cell) ?? '') : cell).slice(0, MAX_CELL_CHARS);

async function openWorkbook(content: Buffer): Promise<ZipFile> {
  if (!content.subarray(0, 4).equals(ZIP_MAGIC)) throw new UnreadableSpreadsheetError('not a zip file');
  return openZip(content);
}

async function sharedStrings(zip: ZipFile, entries: Map<string, Entry>, needed: Set<number> | 'all') {
  const sharedEntry = entries.get(await sharedStringsPath(zip, entries));
  if (!sharedEntry) throw new UnreadableSpreadsheetError('the sheet names shared strings the file lacks');
  return readSharedStrings(zip, sharedEntry, needed);
}

// ---- zip ------------------------------------------------------------------------------------

function openZip(content: Buffer): Promise<ZipFile> {
  return new Promise((resolve, reject) => {
    unzip().fromBuffer(content, { lazyEntries: true, autoClose: false }, (err, zip) => {
      if (err || !zip)
        return reject(new UnreadableSpreadsheetError(`not a readable zip file: ${err?.message}`));
      // Errors are also passed to the callbacks of the calls that meet them.
      zip.on('error', () => {});
      resolve(zip);
    });
  });
}

/** The entries of the central directory, by path (no data is inflated here). */
function listEntries(zip: ZipFile): Promise<Map<string, Entry>> {
  return new Promise((resolve, reject) => {
    const entries = new Map<string, Entry>();
    zip.on('entry', (entry: Entry) => {
      entries.set(entry.fileName.replace(/^\/+/, ''), entry);
      if (entries.size > MAX_ENTRIES) reject(new UnreadableSpreadsheetError('too many parts'));
      else zip.readEntry();
    });
    zip.once('end', () => resolve(entries));
    zip.once('error', (err: Error) => reject(new UnreadableSpreadsheetError(err.message)));
    zip.readEntry();
  });
}

function openEntry(zip: ZipFile, entry: Entry): Promise<Readable> {
  return new Promise((resolve, reject) => {
    if (entry.isEncrypted()) return reject(new UnreadableSpreadsheetError('encrypted workbook'));
    zip.openReadStream(entry, (err, stream) => {
      if (err || !stream) reject(new UnreadableSpreadsheetError(`unreadable part: ${err?.message}`));
      else resolve(stream);
    });
  });
}

/**
 * Feeds an entry's inflated text to `onText` chunk by chunk, yielding to the event loop after
 * each chunk; stops early when `onText` returns false. At most `maxBytes` are inflated.
 */
async function streamEntry(
  zip: ZipFile,
  entry: Entry,
  maxBytes: number,
  onText: (text: string) => boolean,
): Promise<void> {
  const stream = await openEntry(zip, entry);
  const decoder = new StringDecoder('utf8');
  let bytes = 0;
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      bytes += chunk.length;
      if (bytes > maxBytes) throw new UnreadableSpreadsheetError(`${entry.fileName} is too large to read`);
      if (!onText(decoder.write(chunk))) return;
      await nextTurn();
    }
    onText(decoder.end());
  } catch (err) {
    if (err instanceof UnreadableSpreadsheetError) throw err;
    throw new UnreadableSpreadsheetError(`${entry.fileName}: ${(err as Error).message}`);
  } finally {
    stream.destroy();
  }
}

/** An XML parser whose tag names lose their namespace prefix (`x:row` -> `row`). */
function xmlParser(handlers: {
  open?: (name: string, attributes: Record<string, string>) => void;
  close?: (name: string) => void;
  text?: (text: string) => void;
}) {
  const parser = new (xml().SaxesParser)();
  const local = (name: string) => name.slice(name.indexOf(':') + 1);
  if (handlers.open) {
    const open = handlers.open;
    parser.on('opentag', (tag: SaxesTagPlain) => open(local(tag.name), tag.attributes));
  }
  if (handlers.close) {
    const close = handlers.close;
    parser.on('closetag', (tag: SaxesTagPlain) => close(local(tag.name)));
  }
  if (handlers.text) parser.on('text', handlers.text);
  const guard = (run: () => void) => {
    try {
      run();
    } catch (err) {
      throw new UnreadableSpreadsheetError(`broken XML: ${(err as Error).message}`);
    }
  };
  return {
    write: (text: string) => guard(() => parser.write(text)),
    /** After the last chunk of a part read to its end: unclosed elements are an error. */
    close: () => guard(() => parser.close()),
  };
}

/** The attributes of every element named `tag` (any prefix) in a small part, in document order. */
async function findElements(zip: ZipFile, entry: Entry, tag: string): Promise<Array<Record<string, string>>> {
  const found: Array<Record<string, string>> = [];
  const parser = xmlParser({
    open: (name, attributes) => {
      if (name === tag) found.push(attributes);
    },
  });
  await streamEntry(zip, entry, MAX_SMALL_PART_BYTES, (text) => {
    parser.write(text);
    return true;
  });
  parser.close();
  return found;
}

/** Resolves a relationship target against the folder of the part that names it. */
function partPath(target: string, base = 'xl'): string {
  if (target.startsWith('/')) return target.slice(1);
  const parts = `${base}/${target}`.split('/');
  const out: string[] = [];
  for (const part of parts) {
    if (part === '..') out.pop();
    else if (part !== '.' && part !== '') out.push(part);
  }
  return out.join('/');
}

async function workbookRels(zip: ZipFile, entries: Map<string, Entry>) {
  const rels = entries.get('xl/_rels/workbook.xml.rels');
  return rels ? await findElements(zip, rels, 'Relationship') : [];
}

/** The first `max` sheets in the workbook's own order (not the order of the zip's parts). */
async function sheetPaths(zip: ZipFile, entries: Map<string, Entry>, max: number): Promise<string[]> {
  const workbook = entries.get('xl/workbook.xml');
  if (!workbook) throw new UnreadableSpreadsheetError('no workbook part');
  const sheets = (await findElements(zip, workbook, 'sheet')).slice(0, max);
  if (!sheets.length) throw new UnreadableSpreadsheetError('the workbook has no sheet');
  const rels = await workbookRels(zip, entries);
  return sheets.map((sheet, i) => {
    const id = Object.entries(sheet).find(([name]) => name === 'r:id' || name.endsWith(':id'))?.[1];
    const rel = rels.find((r) => r.Id === id);
    return rel?.Target ? partPath(rel.Target) : `xl/worksheets/sheet${i + 1}.xml`;
  });
}

async function sharedStringsPath(zip: ZipFile, entries: Map<string, Entry>): Promise<string> {
  const rel = (await workbookRels(zip, entries)).find((r) => r.Type?.endsWith('/sharedStrings'));
  return rel?.Target ? partPath(rel.Target) : 'xl/sharedStrings.xml';
}

// ---- the sheet ------------------------------------------------------------------------------

/** A cell before shared strings are looked up: text, or the index of a shared string. */
type RawCell = string | number;
interface RawLine {
  row: number;
  cells: RawCell[];
}

/** `B7` -> 1 (column B); -1 when the reference has no valid column. */
function columnOf(ref: string | undefined): number {
  const letters = /^\$?([A-Za-z]{1,3})\$?\d*$/.exec(ref ?? '')?.[1];
  if (!letters) return -1;
  let n = 0;
  for (const ch of letters.toUpperCase()) n = n * 26 + (ch.charCodeAt(0) - 64);
  return n - 1;
}

/**
 * Parses a sheet's XML as a stream and hands each row to `onRow` (cells of the first
 * `maxColumns` columns); reading stops when `onRow` returns false. Answers the shared-string
 * indexes the rows named. `formulas`: `written` keeps a formula as `=…`, `cached` its result.
 */
async function parseSheet(
  zip: ZipFile,
  entry: Entry,
  options: { maxColumns: number; formulas: 'written' | 'cached'; onRow: (line: RawLine) => boolean },
) {
  const sharedIndexes = new Set<number>();

  let inSheetData = false;
  let line: RawLine | null = null;
  let lastRow = 0;
  let lastColumn = -1;
  // The cell being read.
  let cell: { column: number; type: string; value: string; formula: string | null } | null = null;
  let into: 'value' | 'formula' | 'inline' | null = null;

  const append = (text: string) => {
    if (!cell || !into) return;
    if (into === 'formula') {
      cell.formula = (cell.formula ?? '') + text.slice(0, MAX_CELL_CHARS - (cell.formula?.length ?? 0));
    } else cell.value += text.slice(0, MAX_CELL_CHARS - cell.value.length);
  };

  const endCell = () => {
    if (!line || !cell) return;
    const { column } = cell;
    lastColumn = column;
    if (column < 0 || column >= options.maxColumns) return;
    let value: RawCell;
    // A formula as written; a cell sharing another's formula has only its cached value.
    if (cell.formula && options.formulas === 'written') value = `=${cell.formula}`;
    else if (cell.type === 's') {
      const index = Number.parseInt(cell.value, 10);
      if (!Number.isInteger(index) || index < 0) return;
      value = index;
      sharedIndexes.add(index);
    } else if (cell.type === 'b') value = cell.value.trim() === '1' ? 'TRUE' : 'FALSE';
    else value = cell.value;
    while (line.cells.length < column) line.cells.push('');
    line.cells[column] = value;
  };

  let stop = false;
  const parser = xmlParser({
    open: (name, a) => {
      if (stop) return;
      if (name === 'sheetData') inSheetData = true;
      else if (!inSheetData) return;
      else if (name === 'row') {
        const r = Number.parseInt(a.r ?? '', 10);
        lastRow = Number.isSafeInteger(r) && r > 0 ? r : lastRow + 1;
        lastColumn = -1;
        line = { row: lastRow, cells: [] };
      } else if (name === 'c' && line) {
        const column = a.r === undefined ? lastColumn + 1 : columnOf(a.r);
        cell = { column, type: a.t ?? 'n', value: '', formula: null };
      } else if (cell && name === 'v') into = 'value';
      else if (cell && name === 'f') {
        into = 'formula';
        cell.formula ??= '';
      } else if (cell && name === 't') into = 'inline';
    },
    close: (name) => {
      if (stop) return;
      if (name === 'sheetData') inSheetData = false;
      else if (name === 'v' || name === 'f' || name === 't') into = null;
      else if (name === 'c') {
        endCell();
        cell = null;
      } else if (name === 'row') {
        const done = line;
        line = null;
        if (done && !options.onRow(done)) stop = true;
      }
    },
    text: (text) => {
      if (!stop) append(text);
    },
  });
  await streamEntry(zip, entry, MAX_SHEET_BYTES, (text) => {
    parser.write(text);
    return !stop;
  });
  if (!stop) parser.close();
  return sharedIndexes;
}

/**
 * The shared strings at `needed` indexes, or all of them (a string's runs joined); reading
 * stops past the last one needed.
 */
async function readSharedStrings(zip: ZipFile, entry: Entry, needed: Set<number> | 'all') {
  // A loop, never Math.max(...needed): a sheet may name hundreds of thousands of shared
  // strings, and spreading that many arguments overflows the stack.
  let last = needed === 'all' ? Number.POSITIVE_INFINITY : -1;
  if (needed !== 'all') for (const i of needed) if (i > last) last = i;
  const wanted = (i: number) => needed === 'all' || needed.has(i);
  const found = new Map<number, string>();
  let index = -1;
  let current: string | null = null;
  let inText = false;
  // Phonetic runs (<rPh>) are reading aids, not the string.
  let inPhonetic = false;
  let stop = false;
  const parser = xmlParser({
    open: (name) => {
      if (name === 'si') {
        index += 1;
        current = wanted(index) ? '' : null;
      } else if (name === 'rPh') inPhonetic = true;
      else if (name === 't' && !inPhonetic) inText = true;
    },
    close: (name) => {
      if (name === 't') inText = false;
      else if (name === 'rPh') inPhonetic = false;
      else if (name === 'si') {
        if (current !== null) found.set(index, current);
        current = null;
        if (index >= last) stop = true;
      }
    },
    text: (text) => {
      if (inText && current !== null) current += text.slice(0, MAX_CELL_CHARS - current.length);
    },
  });
  await streamEntry(zip, entry, MAX_SHARED_STRINGS_BYTES, (text) => {
    parser.write(text);
    return !stop;
  });
  return found;
}
