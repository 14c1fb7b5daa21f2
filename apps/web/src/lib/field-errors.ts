// Field errors for a form: from a 400's `errors` (`body.email`) or from zod issues (`['email']`).
import type { ChangeEvent } from 'react';
import { ApiError } from './api-error';

/** One message per field; `F` narrows the fields a form has (any name by default). */
export type FieldErrors<F extends string = string> = Partial<Record<F, string>>;

type Issue = { path: string | ReadonlyArray<PropertyKey>; message: string };

/**
 * `[{ path: 'body.email', message }]` or zod's `[{ path: ['email'], message }]` ->
 * `{ email: message }`: the first message per field, only for `fields` when they are given.
 */
export function fieldErrorsFrom<F extends string = string>(
  errors: ReadonlyArray<Issue>,
  fields?: readonly F[],
): FieldErrors<F> {
  const result: FieldErrors<F> = {};
  for (const { path, message } of errors) {
    const parts = typeof path === 'string' ? path.split('.') : path.map(String);
    const field = (parts[0] === 'body' ? parts.slice(1) : parts)[0] as F | undefined;
    if (field && (!fields || fields.includes(field)) && !result[field]) result[field] = message;
  }
  return result;
}

/**
 * A refusal's messages by their whole path, `prefix` taken off (`body.fields.` turns
 * `body.fields.0.default_value` into `0.default_value`): the rows of a list edited in place.
 */
export function messagesByPath(
  errors: ReadonlyArray<{ path: string; message: string }>,
  prefix: string,
): Record<string, string> {
  return Object.fromEntries(
    errors.map((e) => [e.path.startsWith(prefix) ? e.path.slice(prefix.length) : e.path, e.message]),
  );
}

/** The field errors an API refusal carries; empty for anything else. */
export function apiFieldErrors<F extends string = string>(
  error: unknown,
  fields?: readonly F[],
): FieldErrors<F> {
  return error instanceof ApiError ? fieldErrorsFrom(error.errors, fields) : {};
}

/**
 * Focuses the first field (in `fields` order) that has an error, inside `form`: the element
 * named like the field, or the one `selectors` names for it (a group of checkboxes).
 */
export function focusFirstError<F extends string>(
  form: HTMLFormElement | null,
  errors: FieldErrors<F>,
  fields: readonly F[],
  selectors: Partial<Record<F, string>> = {},
): void {
  const first = fields.find((f) => errors[f]);
  if (first) form?.querySelector<HTMLElement>(selectors[first] ?? `[name="${first}"]`)?.focus();
}

/**
 * "Enter …" for each field left empty (the same wording on every form), over whatever else
 * the schema says about it: `emptyFieldErrors(values, { name: 'Enter a name' })`.
 */
export function emptyFieldErrors<F extends string>(
  values: Partial<Record<F, unknown>>,
  messages: Partial<Record<F, string>>,
): FieldErrors<F> {
  const result: FieldErrors<F> = {};
  for (const field of Object.keys(messages) as F[]) {
    const value = values[field];
    if (value === undefined || value === null || (typeof value === 'string' && value.trim() === ''))
      result[field] = messages[field];
  }
  return result;
}

/**
 * A text field's props in a form that keeps its values in React state: its name (which
 * `focusFirstError` finds it by), its error, its value and the setter typing calls, so that
 * `<FormField label="At" type="time" {...bind('time', time, setTime)} />` stands for the four.
 */
export function stateFieldBinder<F extends string>(errors: FieldErrors<F>) {
  return (name: F, value: string, set: (value: string) => void) => ({
    name,
    error: errors[name],
    value,
    onChange: (event: ChangeEvent<HTMLInputElement>) => set(event.target.value),
  });
}
