// react-hook-form glue shared by every form: the contract's zod schemas as resolvers (loaded
// when the page that needs them does, or later for the first chunk), and a refused call's
// field errors put back beside their fields.
import {
  type FieldErrors,
  type FieldPath,
  type FieldValues,
  get,
  type RegisterOptions,
  type Resolver,
  type UseFormReturn,
} from 'react-hook-form';
import { ApiError } from './api-error';
import { type FieldErrors as FieldMessages, fieldErrorsFrom } from './field-errors';
import { focusField } from './focus-field';

/**
 * A resolver whose schema loads on first use (or on `preload()`), for a form on a page of the
 * first chunk: its zod schemas then stay out of that chunk.
 */
export function lazyResolver<T extends FieldValues, O = T>(
  load: () => Promise<Resolver<T, unknown, O>>,
): Resolver<T, unknown, O> & { preload: () => Promise<unknown> } {
  let loading: Promise<Resolver<T, unknown, O>> | null = null;
  const get = () => {
    loading ??= load().catch((error: unknown) => {
      loading = null;
      throw error;
    });
    return loading;
  };
  const resolver = (async (values, context, options) => (await get())(values, context, options)) as Resolver<
    T,
    unknown,
    O
  >;
  return Object.assign(resolver, { preload: () => get().catch(() => undefined) });
}

/** `setValueAs` of an optional number or id: an empty control is null. */
export const numberOrNull = (v: unknown) => (v === '' || v === null || v === undefined ? null : Number(v));

/** `setValueAs` of an optional text: blank is null. */
export const textOrNull = (v: unknown) => (typeof v === 'string' && v.trim() ? v : null);

/**
 * A field's props from its form: its error message and its registration, so that
 * `<FormField label="Phone" {...bind('phone')} />` stands for error= and register().
 */
export function fieldBinder<T extends FieldValues>(
  form: Pick<UseFormReturn<T, unknown, unknown>, 'register' | 'formState'>,
) {
  return <N extends FieldPath<T>>(name: N, options?: RegisterOptions<T, N>) => ({
    error: (get(form.formState.errors, name) as { message?: string } | undefined)?.message,
    ...form.register(name, options),
  });
}

/**
 * The form's errors as one message per field (`{ email: 'Enter an e-mail address' }`), for a
 * form that draws its fields by hand rather than through `fieldBinder`.
 */
export function fieldMessages<T extends FieldValues>(errors: FieldErrors<T>): FieldMessages {
  return Object.fromEntries(
    Object.entries(errors).map(([field, error]) => [field, error?.message as string | undefined]),
  ) as FieldMessages;
}

/**
 * Puts a refused call's field errors (`errors: [{ path: 'body.email', message }]`) on the
 * form's fields, the first one focused. Returns whether any field got one, so that the caller
 * does not repeat them in a toast.
 */
export function setServerErrors<T extends FieldValues>(
  form: Pick<UseFormReturn<T>, 'setError'>,
  error: unknown,
  fields: readonly FieldPath<T>[],
): boolean {
  if (!(error instanceof ApiError)) return false;
  const found = fieldErrorsFrom(error.errors, fields as readonly string[]) as Partial<Record<string, string>>;
  let first = true;
  for (const field of fields) {
    const message = found[field];
    if (!message) continue;
    form.setError(field, { type: 'server', message }, { shouldFocus: first });
    if (first) focusField(field);
    first = false;
  }
  return !first;
}

/** handleSubmit's second argument: the first field at fault, in `fields` order, gets the focus. */
export function focusFirstInvalid<T extends FieldValues>(fields: readonly FieldPath<T>[]) {
  return (errors: Partial<Record<string, unknown>>) => {
    const first = fields.find((field) => errors[field]);
    if (first) focusField(first);
  };
}

/**
 * "Enter …" for a field left empty (the same wording on every form) over whatever the schema
 * says about it: `withEmptyMessages(zodResolver(ZCreateGroupBody), { name: 'Enter a name' })`.
 */
export function withEmptyMessages<T extends FieldValues, O>(
  resolver: Resolver<T, unknown, O>,
  messages: Partial<Record<FieldPath<T>, string>>,
): Resolver<T, unknown, O> {
  return async (values, context, options) => {
    const result = await resolver(values, context, options);
    const errors = result.errors as Record<string, { type?: string; message?: string } | undefined>;
    for (const [field, message] of Object.entries(messages) as Array<[string, string]>) {
      const value = (values as Record<string, unknown>)[field];
      const empty =
        value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
      if (empty) errors[field] = { ...errors[field], type: errors[field]?.type ?? 'required', message };
    }
    return Object.keys(errors).length > 0 ? { values: {}, errors: result.errors } : result;
  };
}

/**
 * A resolver from a check that names the fields at fault (for rules beyond one schema, such
 * as the password policy): `{ password: 'Use at least 10 characters' }` or `{}`.
 */
export function checkResolver<T extends FieldValues>(
  check: (values: T) => Partial<Record<string, string | undefined>>,
): Resolver<T, unknown, T> {
  return (values) => {
    const found = Object.entries(check(values)).filter((entry): entry is [string, string] =>
      Boolean(entry[1]),
    );
    if (found.length === 0) return { values, errors: {} };
    const errors = Object.fromEntries(
      found.map(([field, message]) => [field, { type: 'validate', message }]),
    );
    return { values: {}, errors: errors as FieldErrors<T> };
  };
}
