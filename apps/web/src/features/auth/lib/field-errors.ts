// A 400's `errors: [{ path: 'body.field', message }]` (or zod issues) as one message per field.
import { ApiError } from '../../../lib/api-error';

export type FieldErrors<F extends string> = Partial<Record<F, string>>;

/** The first message for each of `fields`; `body.password` and `password` both name `password`. */
export function fieldErrorsFrom<F extends string>(
  errors: ReadonlyArray<{ path: string; message: string }>,
  fields: readonly F[],
): FieldErrors<F> {
  const result: FieldErrors<F> = {};
  for (const { path, message } of errors) {
    const field = path.replace(/^body\./, '').split('.')[0] as F;
    if (fields.includes(field) && !result[field]) result[field] = message;
  }
  return result;
}

/** The field errors a failed call carries. */
export function apiFieldErrors<F extends string>(error: unknown, fields: readonly F[]): FieldErrors<F> {
  return error instanceof ApiError ? fieldErrorsFrom(error.errors, fields) : {};
}

/** zod issues (`{ path: ['email'], message }`) as field errors. */
export function issueFieldErrors<F extends string>(
  issues: ReadonlyArray<{ path: PropertyKey[]; message: string }>,
  fields: readonly F[],
): FieldErrors<F> {
  return fieldErrorsFrom(
    issues.map((i) => ({ path: i.path.map(String).join('.'), message: i.message })),
    fields,
  );
}

/** Focuses the first field (in `fields` order) that has an error, inside `form`. */
export function focusFirstError<F extends string>(
  form: HTMLFormElement | null,
  errors: FieldErrors<F>,
  fields: readonly F[],
): void {
  const first = fields.find((f) => errors[f]);
  if (first) form?.querySelector<HTMLElement>(`[name="${first}"]`)?.focus();
}
