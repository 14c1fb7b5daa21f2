// A spreadsheet import's errors (`{ path: 'row 4.email', message }`), grouped by row, for
// every import screen (users, value lists).

export interface ImportErrors {
  /** Row number -> its problems in words ("E-mail: This e-mail is already in use"). */
  byRow: Map<number, string[]>;
  /** Problems not tied to one row (the file, the header). */
  general: string[];
}

/** `labels` names the columns in words (`{ email: 'E-mail' }`); others show as they are. */
export function groupImportErrors(
  errors: ReadonlyArray<{ path: string; message: string }>,
  labels: Record<string, string> = {},
): ImportErrors {
  const byRow = new Map<number, string[]>();
  const general: string[] = [];
  for (const { path, message } of errors) {
    const match = /^row (\d+)(?:\.(\w+))?/.exec(path);
    if (!match) {
      general.push(message);
      continue;
    }
    const row = Number(match[1]);
    const field = match[2];
    const text = field ? `${labels[field] ?? field}: ${message}` : message;
    byRow.set(row, [...(byRow.get(row) ?? []), text]);
  }
  return { byRow, general };
}
