// Named errors. Services throw them; the one error handler (app.ts) turns them into
// `{ message, code, errors? }` with their status. No route builds an error body by hand.

import { BlobStoreUnavailableError } from './blob-store.js';

export interface FieldError {
  path: string;
  message: string;
}

interface AppErrorFlags {
  /** The service recorded this refusal itself: the error handler does not audit it again. */
  audited?: boolean;
  /** A refusal that is not a 401/403 (a 404 for an object the caller may not see): audited too. */
  refusal?: boolean;
}

export class AppError extends Error {
  override name = 'AppError';
  readonly audited: boolean;
  readonly refusal: boolean;
  constructor(
    readonly code: string,
    readonly statusCode: number,
    message: string,
    readonly errors?: FieldError[],
    flags: AppErrorFlags = {},
  ) {
    super(message);
    this.audited = flags.audited ?? false;
    this.refusal = flags.refusal ?? (statusCode === 401 || statusCode === 403);
  }
}

/** `createError({ code, statusCode, message })` -> a function that makes that error. */
export function createError<A extends unknown[] = []>(spec: {
  code: string;
  statusCode: number;
  message: string | ((...args: A) => string);
}) {
  return (...args: A) =>
    new AppError(
      spec.code,
      spec.statusCode,
      typeof spec.message === 'function' ? spec.message(...args) : spec.message,
    );
}

export const NOT_AUTHENTICATED_MESSAGE = 'You are not authenticated, Please login';

export const notAuthenticated = createError({
  code: 'auth.not_authenticated',
  statusCode: 401,
  message: NOT_AUTHENTICATED_MESSAGE,
});

export const forbidden = createError({
  code: 'auth.forbidden',
  statusCode: 403,
  message: (what: string) => `You are not allowed to ${what}`,
});

export const twoFactorRequired = createError({
  code: 'auth.two_factor_required',
  statusCode: 403,
  message: 'Two-factor verification is required before you can continue',
});

export const notFound = createError({
  code: 'not_found',
  statusCode: 404,
  message: (what: string) => `${what} not found`,
});

/** The vendor admin is managed by the vendor only (user administration, 2FA resets, …). */
export const vendorAdminProtected = createError({
  code: 'user.vendor_admin_protected',
  statusCode: 403,
  message: 'The Vendor Admin account cannot be changed, deactivated or deleted here',
});

/** An admin acting on a user whose access type grants an area beyond the admin's own. */
export const moreAccessThanYours = createError({
  code: 'user.more_access',
  statusCode: 403,
  message: 'You cannot manage a user with more access than your own',
});

/** Calls of the Settings area that only a Company Admin may make (backups, the directory). */
export const companyAdminOnly = createError({
  code: 'auth.forbidden',
  statusCode: 403,
  message: (what: string) => `You are not allowed to ${what}: only a Company Admin may`,
});

/** A 400 naming the fields at fault, for checks zod cannot make (uniqueness, files, rows). */
export function invalidInput(message: string, errors: FieldError[]): AppError {
  return new AppError('validation_failed', 400, message, errors);
}

/** A 400 at one field, the same words in the answer and beside the field. */
export const badField = (path: string, message: string): AppError =>
  invalidInput(message, [{ path, message }]);

/**
 * A 400 with a code of its own, at one field: `message` for the answer, `atField` beside the
 * field (default: the same words). For a refusal a person fixes at that field.
 */
export function refusedAt(code: string, path: string, message: string, atField = message): AppError {
  return new AppError(code, 400, message, [{ path, message: atField }]);
}

/** The write broke a unique index (Prisma's P2002): someone saved the same key first. */
export const isUniqueViolation = (err: unknown) => (err as { code?: string } | null)?.code === 'P2002';

/**
 * A `.catch` for a write that two people may race to with the same name: the unique index
 * decides, and the one who comes second gets the same refusal (`taken(name)`) as a name found
 * taken before the write. No name in the write: the error passes unchanged.
 */
export function nameRace(name: string | undefined, taken: (name: string) => Error) {
  return (err: unknown): never => {
    if (name !== undefined && isUniqueViolation(err)) throw taken(name);
    throw err;
  };
}

/**
 * `nameTaken('group')`: the refusal of a name another group has, at `body.name`
 * (`A group named "x" already exists`), for a check before the write and for `nameRace`.
 */
export function nameTaken(what: string) {
  return (name: string) =>
    invalidInput(`A ${what} named "${name}" already exists`, [
      { path: 'body.name', message: `A ${what} with this name already exists` },
    ]);
}

/** "row 4.label: The label is empty (and 2 more)": one line for a list of field errors. */
export function summarise(errors: FieldError[]): string {
  const first = errors[0];
  if (!first) return 'Invalid input';
  const more = errors.length > 1 ? ` (and ${errors.length - 1} more)` : '';
  return `${first.path.replace(/^body\./, '')}: ${first.message}${more}`;
}

/** The disk of the file store has no room left (ENOSPC): nothing was saved. */
const storageFull = createError({
  code: 'storage.full',
  statusCode: 507,
  message:
    'The file store is full, so nothing was saved. Ask an administrator to free space or add storage, then try again.',
});

/** The S3-compatible service of the file store (STORAGE=s3) cannot be reached: nothing was done. */
const storageUnavailable = createError({
  code: 'storage.unavailable',
  statusCode: 503,
  message: 'The file store is not reachable, so nothing was done; try again in a moment',
});

/** PostgreSQL's disk is full (SQLSTATE 53100, disk_full): nothing was saved. */
const databaseFull = createError({
  code: 'database.full',
  statusCode: 507,
  message:
    "The database's disk is full, so nothing was saved. Ask an administrator to free space or add storage, then try again.",
});

/** PostgreSQL is away (stopped, killed, restarting): nothing was done. */
export const databaseUnavailable = createError({
  code: 'database.unavailable',
  statusCode: 503,
  message: 'The database is not reachable; try again in a moment',
});

const NO_SPACE = new Set(['ENOSPC', 'EDQUOT']);
/** PostgreSQL's disk_full, as node-postgres gives it (`code`) or Prisma's driver adapter (`originalCode`). */
const DATABASE_FULL = '53100';
/**
 * How a lost database shows: node-postgres and Node (refused, a server shutting down or
 * starting up: 57P01-57P03, connection exceptions: class 08), Prisma (P1001 can't reach,
 * P1002 timed out, P1017 closed) and Prisma's driver adapter (`kind`).
 */
const DATABASE_DOWN_CODES = new Set([
  'ECONNREFUSED',
  '57P01',
  '57P02',
  '57P03',
  '08000',
  '08001',
  '08003',
  '08004',
  '08006',
  'P1001',
  'P1002',
  'P1017',
]);
const DATABASE_DOWN_KINDS = new Set(['DatabaseNotReachable', 'ConnectionClosed', 'SocketTimeout']);
const DATABASE_DOWN_MESSAGE =
  /Connection terminated|Can't reach database server|Server has closed the connection|Client has encountered a connection error/i;

/**
 * Whether `test` holds for `err` or for what it wraps (its cause, Prisma's driver adapter
 * error, an AggregateError's errors), up to four levels down.
 */
function inErrorChain(err: unknown, test: (e: Record<string, unknown>) => boolean, depth = 0): boolean {
  if (!err || typeof err !== 'object' || depth > 4) return false;
  const e = err as Record<string, unknown>;
  if (test(e)) return true;
  const adapterError = (e.meta as { driverAdapterError?: unknown } | undefined)?.driverAdapterError;
  const wrapped = [e.cause, adapterError, ...(Array.isArray(e.errors) ? e.errors : [])];
  return wrapped.some((inner) => inErrorChain(inner, test, depth + 1));
}

/** Whether `err` (or what it wraps) says the database is away. */
export function isDatabaseDown(err: unknown): boolean {
  return inErrorChain(
    err,
    (e) =>
      (typeof e.code === 'string' && DATABASE_DOWN_CODES.has(e.code)) ||
      (typeof e.kind === 'string' && DATABASE_DOWN_KINDS.has(e.kind)) ||
      (typeof e.message === 'string' && DATABASE_DOWN_MESSAGE.test(e.message)),
  );
}

/** Whether `err` (or what it wraps) is PostgreSQL's disk_full (53100). */
function isDatabaseFull(err: unknown): boolean {
  return inErrorChain(err, (e) => e.code === DATABASE_FULL || e.originalCode === DATABASE_FULL);
}

/**
 * The named error for a failure of what the server stands on (a full disk, the database
 * away), or undefined: the error handler answers these with their status instead of a 500.
 */
export function systemFailure(err: unknown): AppError | undefined {
  const code = (err as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && NO_SPACE.has(code)) return storageFull();
  // Before the database: a refused connection to the file store is not the database's.
  if (err instanceof BlobStoreUnavailableError) return storageUnavailable();
  if (isDatabaseFull(err)) return databaseFull();
  if (isDatabaseDown(err)) return databaseUnavailable();
  return undefined;
}
