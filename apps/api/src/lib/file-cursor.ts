// The cursor of a newest-first file list (keyset paging, an extension of the spec's page):
// `<created_at in ms>.<id>` of a page's last file (created_at is kept to the millisecond). The
// page after it is the files older than that place, read from the list's index at once.

/** A place in a newest-first list of files. */
export interface FilePlace {
  at: Date;
  id: number;
}

/** The cursor of the page after `r` (a page's last file). */
export const cursorOf = (r: { created_at: Date; id: number }) => `${r.created_at.getTime()}.${r.id}`;

/** The place a cursor names (the contract's ZFileCursor has checked its form). */
export function parseCursor(cursor: string): FilePlace {
  const [ms, id] = cursor.split('.');
  return { at: new Date(Number(ms)), id: Number(id) };
}

/** A full page's `next_cursor` (its last file's), else null: there is no page after it. */
export function nextCursor(rows: Array<{ created_at: Date; id: number }>, quantity: number): string | null {
  const last = rows.at(-1);
  return last && rows.length === quantity ? cursorOf(last) : null;
}
