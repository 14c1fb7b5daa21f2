// The errors a call can end in. No contract import here: this file is part of the first
// chunk the browser loads (the notification area uses it), which stays free of zod.

export const NOT_AUTHENTICATED_MESSAGE = 'You are not authenticated, Please login';

export interface FieldError {
  path: string;
  message: string;
}

/** A call the server refused or failed: `{ message, code?, errors? }` with its HTTP status. */
export class ApiError extends Error {
  override name = 'ApiError';
  readonly status: number;
  readonly code: string | undefined;
  readonly errors: FieldError[];
  /** The parsed response body, when it was JSON (read by the error-message rule). */
  readonly body: unknown;

  constructor(status: number, body: unknown) {
    const b = (body ?? {}) as { message?: unknown; code?: unknown; errors?: unknown };
    super(
      typeof b.message === 'string' && b.message !== '' ? b.message : `Request failed with status ${status}`,
    );
    this.status = status;
    this.body = body;
    this.code = typeof b.code === 'string' ? b.code : undefined;
    this.errors = Array.isArray(b.errors) ? b.errors.filter(isFieldError) : [];
  }

  /** Whether the server sent a message of its own (rather than only a status). */
  get serverMessage(): string | undefined {
    const message = (this.body as { message?: unknown } | null)?.message;
    return typeof message === 'string' && message !== '' ? message : undefined;
  }
}

function isFieldError(value: unknown): value is FieldError {
  const v = value as FieldError | null;
  return typeof v?.path === 'string' && typeof v.message === 'string';
}

/** A request cancelled by its caller (a newer search replaced it, the page went away): ignore it. */
export function isAbortError(error: unknown): boolean {
  return (
    (error instanceof DOMException || error instanceof Error) &&
    (error.name === 'AbortError' || error.name === 'CancelledError')
  );
}

/** The session is gone or was never there (spec §8). */
export function isNotAuthenticated(error: unknown): boolean {
  return error instanceof ApiError && (error.status === 401 || error.message === NOT_AUTHENTICATED_MESSAGE);
}
