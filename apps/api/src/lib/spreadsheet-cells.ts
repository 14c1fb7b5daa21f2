// Text written into a spreadsheet export. A cell that starts with = + - @ (or a tab or a
// carriage return) is read as a formula by spreadsheet programs when the file is opened,
// converted or pasted ("CSV/formula injection"): such text gets a leading apostrophe, which
// shows it as the text it is. Every export that writes user text uses this.

const FORMULA_START = /^[=+\-@\t\r]/;

/** The text, made inert when a spreadsheet would read it as a formula. */
export function inertCell(text: string): string {
  return FORMULA_START.test(text) ? `'${text}` : text;
}
