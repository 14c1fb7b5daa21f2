// The import's errors (`{ path: 'row 4.email', message }`), grouped by spreadsheet row.

const FIELD_LABELS: Record<string, string> = {
  username: 'Username',
  email: 'E-mail',
  first_name: 'First name',
  last_name: 'Last name',
  access_type: 'Access type',
  role: 'Role',
  password: 'Password',
  group_ids: 'Groups',
};

export interface ImportErrors {
  /** Row number -> its problems in words ("E-mail: This e-mail is already in use"). */
  byRow: Map<number, string[]>;
  /** Problems not tied to one row (the file, the header). */
  general: string[];
}

export function groupImportErrors(errors: ReadonlyArray<{ path: string; message: string }>): ImportErrors {
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
    const text = field ? `${FIELD_LABELS[field] ?? field}: ${message}` : message;
    byRow.set(row, [...(byRow.get(row) ?? []), text]);
  }
  return { byRow, general };
}
