import { StartupError } from '@quire/db';
import { ConfigError } from './config.js';
import { BlobStoreUnavailableError } from './lib/blob-store.js';

/**
 * What a start that failed prints: sentences that say what to do, never a stack trace
 * (`pnpm start` is often the first command a new user runs). `where` names the address the
 * server tried to listen on, when it got that far.
 */
export function startupFailureMessage(err: unknown, where?: { host: string; port: number }): string {
  if (err instanceof ConfigError || err instanceof StartupError) return err.message;
  const s3 = s3Failure(err);
  if (s3) return s3;
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

/** The S3 store (STORAGE=s3) away, its bucket missing or its keys refused: what to set. */
function s3Failure(err: unknown): string | undefined {
  if (err instanceof BlobStoreUnavailableError)
    return `Quire could not reach the S3 store (${(err.cause as Error)?.message ?? err.message}): check that the service is running and that S3_ENDPOINT names it.`;
  const name = (err as { name?: unknown; $metadata?: unknown } | null)?.$metadata
    ? (err as { name: string }).name
    : undefined;
  if (name === 'NoSuchBucket')
    return 'The bucket S3_BUCKET names does not exist on the S3 store: create it, or correct S3_BUCKET.';
  if (name === 'InvalidAccessKeyId' || name === 'SignatureDoesNotMatch' || name === 'AccessDenied')
    return `The S3 store refused Quire's keys (${name}): check S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY, and that they may use the bucket.`;
  return undefined;
}
