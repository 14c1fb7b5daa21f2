// Field errors for a form: from a 400's `errors` (`body.email`) or from a zod parse (`email`).
import { ApiError } from './api-error';

export type FieldErrors = Record<string, string>;

/** `[{ path: 'body.email', message }]` -> `{ email: message }` (the first message per field). */
export function fieldErrorsFrom(
  errors: ReadonlyArray<{ path: string | ReadonlyArray<PropertyKey>; message: string }>,
) {
  const result: FieldErrors = {};
  for (const { path, message } of errors) {
    const parts = typeof path === 'string' ? path.split('.') : path.map(String);
    const field = (parts[0] === 'body' ? parts.slice(1) : parts)[0];
    if (field && !result[field]) result[field] = message;
  }
  return result;
}

/** The field errors an API refusal carries; empty for anything else. */
export function apiFieldErrors(error: unknown): FieldErrors {
  return error instanceof ApiError ? fieldErrorsFrom(error.errors) : {};
}
