import {
  type FieldPath,
  type FieldValues,
  type Resolver,
  type UseFormReturn,
  useForm,
} from 'react-hook-form';
import { useNotify } from '../components/notifications/notification-context';
import { fieldBinder, focusFirstInvalid, setServerErrors } from './form';

/** A saving mutation, as TanStack Query's `useMutation` gives it. */
export interface SaveMutation<TVars, TSaved> {
  mutate: (
    vars: TVars,
    options: { onSuccess: (saved: TSaved) => void; onError: (error: Error) => void },
  ) => void;
  isPending: boolean;
}

/**
 * `save` as a mutation of the form's checked values: `vars` turns them into the call's
 * variables (an edit's id, a part kept outside the form). A dialog that creates or edits
 * picks one of two such mutations and submits it through `useFormSubmit`.
 */
export function sendingAs<TValues, TVars, TSaved>(
  save: SaveMutation<TVars, TSaved>,
  vars: (values: TValues) => TVars,
): SaveMutation<TValues, TSaved> {
  return { isPending: save.isPending, mutate: (values, options) => save.mutate(vars(values), options) };
}

/** What a form's submit does with the call's answer (see `useFormSubmit`). */
export interface SubmitOptions<TInput extends FieldValues, TValues, TSaved, TVars = TValues> {
  fields: readonly FieldPath<TInput>[];
  failure: string;
  /** The success toast's title and message. */
  told: (saved: TSaved, values: TValues) => readonly [string, string];
  /** After the success toast: what was saved, and the values that were sent. */
  onDone?: (saved: TSaved, values: TValues) => void;
  body?: (values: TValues) => TVars;
  /** 'ignore': a submit while the last one runs does nothing. */
  whilePending?: 'send' | 'ignore';
  /** A submit the form's own checks refuse focuses the first of `fields` in error. */
  focusFirst?: boolean;
}

/**
 * A form's submit that saves: the checked values (through `body`, when the call wants more)
 * go to `save`; success toasts `told` and calls `onDone`; a refusal puts its field errors
 * beside `fields` and toasts `failure` (the error-message rule).
 */
export function useFormSubmit<TInput extends FieldValues, TValues, TSaved, TVars = TValues>(
  form: UseFormReturn<TInput, unknown, TValues>,
  save: SaveMutation<TVars, TSaved>,
  {
    fields,
    failure,
    told,
    onDone,
    body = (values) => values as unknown as TVars,
    whilePending = 'send',
    focusFirst = false,
  }: SubmitOptions<TInput, TValues, TSaved, TVars>,
) {
  const notify = useNotify();
  return form.handleSubmit(
    (values) => {
      if (whilePending === 'ignore' && save.isPending) return;
      save.mutate(body(values), {
        onSuccess: (saved) => {
          notify.success(...told(saved, values));
          onDone?.(saved, values);
        },
        onError: (error) => {
          setServerErrors(form, error, fields);
          notify.notifyFailure(failure, error);
        },
      });
    },
    focusFirst ? focusFirstInvalid(fields) : undefined,
  );
}

/**
 * A form that edits what is already stored: its fields take `values` (and take them again when
 * they change), `bind` gives each field's props, and `onSubmit` saves through `save` as
 * `useFormSubmit` does.
 */
export function useValuesForm<TInput extends FieldValues, TValues, TSaved, TVars = TValues>({
  resolver,
  values,
  save,
  ...submit
}: SubmitOptions<TInput, TValues, TSaved, TVars> & {
  resolver: Resolver<TInput, unknown, TValues>;
  values: TInput;
  save: SaveMutation<TVars, TSaved>;
}) {
  const form = useForm<TInput, unknown, TValues>({ resolver, values });
  return { form, bind: fieldBinder(form), onSubmit: useFormSubmit(form, save, submit) };
}

/** The `keys` of `from`, for a form's values that are some of a stored thing's. */
export function pickValues<T extends object, K extends keyof T>(from: T, keys: readonly K[]): Pick<T, K> {
  return Object.fromEntries(keys.map((key) => [key, from[key]])) as Pick<T, K>;
}
