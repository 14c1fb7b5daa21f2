import type { FormEvent } from 'react';
import type { Notifier } from '../../../components/notifications/notification-store';
import { ApiError } from '../../../lib/api-error';

/**
 * A submitted intake form (a source or a rule), read as the browser holds it: the event
 * stopped, the form element, its FormData and `text(name)`, a field's value trimmed.
 */
export function readSubmit(e: FormEvent<HTMLFormElement>) {
  e.preventDefault();
  const form = e.currentTarget;
  const data = new FormData(form);
  return { form, data, text: (name: string) => String(data.get(name) ?? '').trim() };
}

/** A source's or a rule's save: `{ id: null }` adds one, an id changes that one. */
interface SaveCall<TBody, TSaved> {
  mutate: (
    vars: { id: number | null; body: TBody },
    options: {
      onSuccess: (answer: { message?: string | undefined; data: TSaved }) => void;
      onError: (error: Error) => void;
    },
  ) => void;
}

/**
 * Saves an intake form's `body`. Success toasts the call's message (else `told`'s title) with
 * `told`'s detail, then calls `onDone` (an edit closes) or, adding, empties the form by
 * `form.reset()` and `again()`. A refusal puts `errorsOf` its field errors on the form (none
 * given: they stay) and toasts `failure`.
 */
export function saveIntake<TBody, TSaved, TErrors>(
  save: SaveCall<TBody, TSaved>,
  vars: { id: number | null; body: TBody },
  {
    notify,
    form,
    told,
    failure,
    onDone,
    again,
    setErrors,
    errorsOf,
  }: {
    notify: Notifier;
    form: HTMLFormElement;
    told: (saved: TSaved) => readonly [string, string];
    failure: string;
    onDone: (() => void) | undefined;
    again: () => void;
    setErrors: (errors: TErrors) => void;
    errorsOf: (error: ApiError) => TErrors | null;
  },
) {
  save.mutate(vars, {
    onSuccess: ({ message, data }) => {
      const [title, detail] = told(data);
      notify.success(message ?? title, detail);
      if (onDone) return onDone();
      form.reset();
      again();
    },
    onError: (error) => {
      const errors = error instanceof ApiError ? errorsOf(error) : null;
      if (errors) setErrors(errors);
      notify.notifyFailure(failure, error);
    },
  });
}
