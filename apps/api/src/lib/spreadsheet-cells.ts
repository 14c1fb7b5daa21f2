// Text written into a spreadsheet export. A cell that starts with = + - @ (or a tab or a
// carriage return) is read as a formula by spreadsheet programs when the file is opened,
// converted or pasted ("CSV/formula injection"): such text gets a leading apostrophe, which
// shows it as the text it is. Every export that writes user text uses this: the audit export,
// the category export and the file record export.

const FORMULA_START = /^[=+\-@\t\r]/;

/** The text, made inert when a spreadsheet would read it as a formula. */
export function inertCell(text: string): string {
  return FORMULA_START.test(text) ? `'${text}` : text;
}

const inertValue = <V>(v: V): V => (typeof v === 'string' ? (inertCell(v) as V) : v);

/** A row (array or keyed object) with every text cell made inert; numbers and dates as they are. */
export function inertRow<T extends readonly unknown[] | Record<string, unknown>>(row: T): T {
  if (Array.isArray(row)) return row.map(inertValue) as unknown as T;
  return Object.fromEntries(Object.entries(row).map(([k, v]) => [k, inertValue(v)])) as T;
}

/** A sheet's columns from [header, key, width] triples, each header made inert. */
export function sheetColumns(cols: ReadonlyArray<readonly [header: string, key: string, width: number]>) {
  return cols.map(([header, key, width]) => ({ header: inertCell(header), key, width }));
}
