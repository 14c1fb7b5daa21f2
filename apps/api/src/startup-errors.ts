import { StartupError } from '@quire/db';
import { ConfigError } from './config.js';

/**
 * What a start that failed prints: sentences that say what to do, never a stack trace
 * (`pnpm start` is often the first command a new user runs). `where` names the address the
 * server tried to listen on, when it got that far.
 */
export function startupFailureMessage(err: unknown, where?: { host: string; port: number }): string {
  if (err instanceof ConfigError || err instanceof StartupError) return err.message;
  const e = err as NodeJS.ErrnoException & { address?: string; port?: number };
  const text = e instanceof Error ? e.message : String(err);
  switch (e?.code) {
    case 'EADDRINUSE':
      return `Port ${where?.port ?? e.port} on ${where?.host ?? e.address} is already in use: stop the program that uses it, or set PORT to a free port.`;
    case 'EADDRNOTAVAIL':
      return `This machine has no address ${where?.host ?? e.address}: set HOST to one of its addresses, 127.0.0.1, or 0.0.0.0.`;
    case 'EACCES':
      if (e.syscall === 'listen')
        return `This user may not listen on port ${where?.port ?? e.port}: set PORT to 1024 or above.`;
      return `Quire may not use ${e.path ?? 'a file it needs'} (permission denied): give this user access to it, or set DATA_DIR to a folder it may write to.`;
    case 'ECONNREFUSED':
    case 'ENOTFOUND':
    case 'ETIMEDOUT':
      return `Quire could not reach the database (${text}): check that PostgreSQL is running and that DATABASE_URL names it.`;
    case '28P01':
    case '28000':
      return `The database refused Quire's credentials (${text}): check the user name and password in DATABASE_URL.`;
    case '3D000':
      return `The database named in DATABASE_URL does not exist (${text}): create it, or correct DATABASE_URL.`;
    case 'EROFS':
      return `${e.path ?? 'A folder Quire writes to'} is on a read-only file system: set DATA_DIR (and STORAGE_DIR) to a writable folder.`;
    case 'ENOSPC':
      return 'The disk is full: free some space and start Quire again.';
  }
  return `Quire could not start: ${text || 'an unknown error'}. Start it again with LOG_LEVEL=debug for details, and report the problem if it persists.`;
}
