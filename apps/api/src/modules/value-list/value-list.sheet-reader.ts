import { Readable } from 'node:stream';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { createInflateRaw } from 'node:zlib';
import { SaxesParser, type SaxesTagPlain } from 'saxes';

// Reads the first sheet of an .xlsx, bounded by what is in it, for the value-list import.
//
// THE INTERFACE IS THE ONE OF `apps/api/src/lib/spreadsheet.ts` (branch harden-api): when
// that file is on main, import `readFirstSheet` and `UnreadableSpreadsheetError` from it and
// delete this one. Until then this is the reader (issue 12 asked for one behind this interface).
//
// An .xlsx is a zip of XML parts. Only the zip's central directory is read at first (offsets
// checked against the buffer); the parts used (workbook, its relationships, the first sheet,
// the shared strings) are inflated by zlib as streams (off the main thread, a block at a time
// as the parser asks for more), parsed chunk by chunk, yielding to the event loop between
// chunks. Rows are counted as they are met (the sheet's <dimension>, row numbers and the zip's
// stated sizes are never trusted as sizes); reading stops once the data rows pass `maxRows`,
// only the first `maxColumns` columns are kept, each cell at most MAX_CELL_CHARS, and each part
// has a ceiling on its inflated size, so a zip bomb ends in a refusal. Shared strings are read
// after the sheet, and only those the kept cells name are kept.
//
// Cells are text as stored: numbers as written, booleans TRUE/FALSE, a formula as `=` and the
// formula (its cached result is ignored). Nothing is evaluated.

export const MAX_CELL_CHARS = 32_767;
const MAX_SMALL_PART_BYTES = 1024 * 1024;
const MAX_SHEET_BYTES = 64 * 1024 * 1024;
const MAX_SHARED_STRINGS_BYTES = 32 * 1024 * 1024;
const ZIP_MAGIC = Buffer.from([0x50, 0x4b, 0x03, 0x04]);

export interface SheetLine {
  /** The row number the file gives (1-based), or the one after the previous row. */
  row: number;
  /** Cell texts by column (0 = A), trimmed; '' where the row has no value. */
  cells: string[];
}

export interface FirstSheet {
  /** The first row holding any text (normally row 1); null for an empty sheet. */
  header: SheetLine | null;
  /** The non-empty rows below the header, at most `maxRows`. */
  rows: SheetLine[];
  /** True when the sheet has more than `maxRows` non-empty rows below the header (reading stopped there). */
  overLimit: boolean;
}

export interface ReadOptions {
  /** Data rows (below the header) to read at most; one more sets `overLimit`. */
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
  if (!content.subarray(0, 4).equals(ZIP_MAGIC)) throw new UnreadableSpreadsheetError('not a zip file');
  const zip: ZipRef = { content, entries: readZipDirectory(content) };
  const rels = await workbookRels(zip);
  const sheet = await readSheetXml(zip, await firstSheetPath(zip, rels), options);
  let shared = new Map<number, string>();
  if (sheet.sharedIndexes.size > 0) {
    const rel = rels.find((r) => r.Type?.endsWith('/sharedStrings'));
    shared = await readSharedStrings(
      zip,
      rel?.Target ? partPath(rel.Target) : 'xl/sharedStrings.xml',
      sheet.sharedIndexes,
    );
  }
  const resolve = (line: RawLine): SheetLine => ({
    row: line.row,
    cells: line.cells.map((cell) =>
      (typeof cell === 'number' ? (shared.get(cell) ?? '') : cell).trim().slice(0, MAX_CELL_CHARS),
    ),
  });
  return {
    header: sheet.header ? resolve(sheet.header) : null,
    rows: sheet.rows.map(resolve),
    overLimit: sheet.overLimit,
  };
}

// ---- zip --------------------------------------------------------------------------------------

/** One part of the zip: where its compressed bytes are and how they are compressed. */
interface ZipEntry {
  method: number;
  start: number;
  compressedSize: number;
}
type Zip = Map<string, ZipEntry>;

const MAX_ENTRIES = 10_000;

/**
 * The zip's central directory (names, methods, where each part's bytes are). Only what is in
 * the buffer is read; every offset is checked against it. Nothing is inflated here.
 */
function readZipDirectory(content: Buffer): Zip {
  const bad = (why: string) => new UnreadableSpreadsheetError(`not a readable zip file: ${why}`);
  // The end-of-central-directory record: in the last 22 + 65535 bytes (its comment).
  let eocd = -1;
  for (let i = content.length - 22; i >= Math.max(0, content.length - 22 - 0xffff); i -= 1) {
    if (content.readUInt32LE(i) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw bad('no central directory');
  const count = content.readUInt16LE(eocd + 10);
  let at = content.readUInt32LE(eocd + 16);
  if (count > MAX_ENTRIES) throw bad('too many parts');
  const zip: Zip = new Map();
  for (let n = 0; n < count; n += 1) {
    if (at + 46 > content.length || content.readUInt32LE(at) !== 0x02014b50) throw bad('broken directory');
    const flags = content.readUInt16LE(at + 8);
    const method = content.readUInt16LE(at + 10);
    const compressedSize = content.readUInt32LE(at + 20);
    const nameLength = content.readUInt16LE(at + 28);
    const extraLength = content.readUInt16LE(at + 30);
    const commentLength = content.readUInt16LE(at + 32);
    const local = content.readUInt32LE(at + 42);
    if (at + 46 + nameLength > content.length) throw bad('broken directory');
    const name = content.toString('utf8', at + 46, at + 46 + nameLength).replace(/^\/+/, '');
    at += 46 + nameLength + extraLength + commentLength;
    if (flags & 1) throw new UnreadableSpreadsheetError('encrypted workbook');
    if (local + 30 > content.length || content.readUInt32LE(local) !== 0x04034b50) throw bad('broken part');
    const start = local + 30 + content.readUInt16LE(local + 26) + content.readUInt16LE(local + 28);
    if (start + compressedSize > content.length) throw bad('a part runs past the end of the file');
    zip.set(name, { method, start, compressedSize });
  }
  return zip;
}

/** A part's inflated bytes as a stream (zlib works off the main thread, asked for more as they are read). */
function openPart(content: Buffer, entry: ZipEntry): Readable {
  const raw = Readable.from([content.subarray(entry.start, entry.start + entry.compressedSize)]);
  if (entry.method === 0) return raw;
  if (entry.method !== 8) throw new UnreadableSpreadsheetError(`unsupported compression ${entry.method}`);
  return raw.pipe(createInflateRaw());
}

// ---- parts ----------------------------------------------------------------------------------

/**
 * Feeds a part's inflated text to `onText` chunk by chunk, yielding to the event loop after
 * each chunk; stops when `onText` returns false. More than `maxBytes` inflated is a refusal.
 */
async function streamPart(
  zip: ZipRef,
  path: string,
  maxBytes: number,
  onText: (text: string) => boolean,
): Promise<void> {
  const entry = zip.entries.get(path);
  if (!entry) throw new UnreadableSpreadsheetError(`no part ${path}`);
  const decoder = new TextDecoder('utf-8');
  const stream = openPart(zip.content, entry);
  let bytes = 0;
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      bytes += chunk.length;
      if (bytes > maxBytes) throw new UnreadableSpreadsheetError(`${path} is too large to read`);
      if (!onText(decoder.decode(chunk, { stream: true }))) return;
      await nextTurn();
    }
    onText(decoder.decode());
  } catch (err) {
    if (err instanceof UnreadableSpreadsheetError) throw err;
    throw new UnreadableSpreadsheetError(`${path}: ${(err as Error).message}`);
  } finally {
    stream.destroy();
  }
}

/** The zip's bytes and directory, as the readers below take them. */
interface ZipRef {
  content: Buffer;
  entries: Zip;
}

/** An XML parser whose tag names lose their namespace prefix (`x:row` -> `row`). */
function xmlParser(handlers: {
  open?: (name: string, attributes: Record<string, string>) => void;
  close?: (name: string) => void;
  text?: (text: string) => void;
}) {
  const parser = new SaxesParser();
  const local = (name: string) => name.slice(name.indexOf(':') + 1);
  const { open, close, text } = handlers;
  if (open) parser.on('opentag', (tag: SaxesTagPlain) => open(local(tag.name), tag.attributes));
  if (close) parser.on('closetag', (tag: SaxesTagPlain) => close(local(tag.name)));
  if (text) parser.on('text', text);
  const guard = (run: () => void) => {
    try {
      run();
    } catch (err) {
      throw new UnreadableSpreadsheetError(`broken XML: ${(err as Error).message}`);
    }
  };
  return {
    write: (chunk: string) => guard(() => parser.write(chunk)),
    close: () => guard(() => parser.close()),
  };
}

/** The attributes of every element named `tag` in a small part, in document order. */
async function findElements(zip: ZipRef, path: string, tag: string): Promise<Array<Record<string, string>>> {
  const found: Array<Record<string, string>> = [];
  const parser = xmlParser({
    open: (name, attributes) => {
      if (name === tag) found.push(attributes);
    },
  });
  await streamPart(zip, path, MAX_SMALL_PART_BYTES, (text) => {
    parser.write(text);
    return true;
  });
  parser.close();
  return found;
}

/** Resolves a relationship target against the folder of the part that names it. */
function partPath(target: string, base = 'xl'): string {
  if (target.startsWith('/')) return target.slice(1);
  const out: string[] = [];
  for (const part of `${base}/${target}`.split('/')) {
    if (part === '..') out.pop();
    else if (part !== '.' && part !== '') out.push(part);
  }
  return out.join('/');
}

async function workbookRels(zip: ZipRef) {
  return zip.entries.has('xl/_rels/workbook.xml.rels')
    ? await findElements(zip, 'xl/_rels/workbook.xml.rels', 'Relationship')
    : [];
}

/** The first sheet in the workbook's own order (not the order of the zip's parts). */
async function firstSheetPath(zip: ZipRef, rels: Array<Record<string, string>>): Promise<string> {
  if (!zip.entries.has('xl/workbook.xml')) throw new UnreadableSpreadsheetError('no workbook part');
  const [first] = await findElements(zip, 'xl/workbook.xml', 'sheet');
  if (!first) throw new UnreadableSpreadsheetError('the workbook has no sheet');
  const id = Object.entries(first).find(([name]) => name === 'r:id' || name.endsWith(':id'))?.[1];
  const rel = rels.find((r) => r.Id === id);
  return rel?.Target ? partPath(rel.Target) : 'xl/worksheets/sheet1.xml';
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

async function readSheetXml(zip: ZipRef, path: string, options: ReadOptions) {
  const sharedIndexes = new Set<number>();
  let header: RawLine | null = null;
  const rows: RawLine[] = [];
  let overLimit = false;
  let inSheetData = false;
  let line: RawLine | null = null;
  let lastRow = 0;
  let lastColumn = -1;
  let cell: { column: number; type: string; value: string; formula: string | null } | null = null;
  let into: 'value' | 'formula' | 'inline' | null = null;

  const append = (text: string) => {
    if (!cell || !into) return;
    if (into === 'formula') {
      const f = cell.formula ?? '';
      cell.formula = f + text.slice(0, MAX_CELL_CHARS - f.length);
    } else cell.value += text.slice(0, MAX_CELL_CHARS - cell.value.length);
  };

  const endCell = () => {
    if (!line || !cell) return;
    const { column } = cell;
    lastColumn = column;
    if (column < 0 || column >= options.maxColumns) return;
    let value: RawCell;
    if (cell.formula) value = `=${cell.formula}`;
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

  const isEmpty = (l: RawLine) => l.cells.every((c) => typeof c === 'string' && c.trim() === '');

  /** False once the rows are over the limit: reading stops there. */
  const endRow = (): boolean => {
    const done = line;
    line = null;
    if (!done || isEmpty(done)) return true;
    if (!header) {
      header = done;
      return true;
    }
    if (rows.length >= options.maxRows) {
      overLimit = true;
      return false;
    }
    rows.push(done);
    return true;
  };

  let stop = false;
  const parser = xmlParser({
    open: (name, a) => {
      if (stop) return;
      if (name === 'sheetData') inSheetData = true;
      else if (!inSheetData) return;
      else if (name === 'row') {
        const r = Number.parseInt(a.r ?? '', 10);
        lastRow = Number.isSafeInteger(r) && r > lastRow ? r : lastRow + 1;
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
      } else if (name === 'row' && !endRow()) stop = true;
    },
    text: (text) => {
      if (!stop) append(text);
    },
  });
  await streamPart(zip, path, MAX_SHEET_BYTES, (text) => {
    parser.write(text);
    return !stop;
  });
  if (!stop) parser.close();
  return { header: header as RawLine | null, rows, overLimit, sharedIndexes };
}

/** The shared strings at `needed` indexes (a string's runs joined); reading stops past the last one. */
async function readSharedStrings(zip: ZipRef, path: string, needed: Set<number>) {
  if (!zip.entries.has(path))
    throw new UnreadableSpreadsheetError('the sheet names shared strings the file lacks');
  const last = Math.max(...needed);
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
        current = needed.has(index) ? '' : null;
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
  await streamPart(zip, path, MAX_SHARED_STRINGS_BYTES, (text) => {
    parser.write(text);
    return !stop;
  });
  return found;
}
