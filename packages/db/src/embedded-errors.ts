import { accessSync, constants, existsSync } from 'node:fs';
import path from 'node:path';

// What a start of the embedded PostgreSQL says when it cannot work: one sentence a person can
// act on (the server prints it alone, without a stack trace).

/**
 * A start that cannot work, with one sentence that says what to do. The server prints the
 * message alone (no stack trace).
 */
export class StartupError extends Error {
  override name = 'StartupError';
}

/** Where root keeps PostgreSQL's programs and the clusters its OS user cannot reach in place. */
export function lastLine(text: string): string {
  return (
    text
      .split('\n')
      .map((l) => l.trim())
      .filter(Boolean)
      .pop() ?? ''
  );
}

export function errorText(err: unknown): string {
  const e = err as NodeJS.ErrnoException & { stderr?: string };
  if (e?.stderr) return lastLine(String(e.stderr));
  if (e?.code) return `${e.code}${e.path ? ` on ${e.path}` : ''}`;
  return e instanceof Error ? e.message : String(err);
}

/** Why the nearest existing folder at or above `dir` cannot be written, or null. */
function unwritable(dir: string): NodeJS.ErrnoException | null {
  let current = path.resolve(dir);
  while (!existsSync(current) && path.dirname(current) !== current) current = path.dirname(current);
  try {
    accessSync(current, constants.W_OK);
    return null;
  } catch (err) {
    return err as NodeJS.ErrnoException;
  }
}

/** Turns a file-system refusal into the one sentence a person can act on. */
export function asStartupError(err: unknown, dataDir: string): Error {
  if (err instanceof StartupError) return err;
  const refusal = unwritable(dataDir);
  if (refusal) err = refusal;
  const code = (err as NodeJS.ErrnoException)?.code;
  if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS') {
    return new StartupError(
      `Quire cannot write its data folder ${dataDir} (${errorText(err)}): set DATA_DIR to a folder this user may write to.`,
    );
  }
  if (code === 'ENOSPC') {
    return new StartupError(
      `The disk that holds ${dataDir} is full: free some space, or set DATA_DIR to another disk.`,
    );
  }
  return new StartupError(
    `The embedded PostgreSQL could not be prepared in ${dataDir} (${errorText(err)}): check that folder, or set DATABASE_URL to a PostgreSQL server of your own.`,
  );
}
