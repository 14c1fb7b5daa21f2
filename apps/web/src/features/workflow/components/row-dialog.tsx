import type { UseMutationResult } from '@tanstack/react-query';
import type { FormEventHandler, ReactNode } from 'react';
import type { FieldPath, FieldValues, UseFormReturn } from 'react-hook-form';
import { Dialog } from '../../../components/dialog';
import { DialogActions } from '../../../components/dialog-actions';
import { useNotify } from '../../../components/notifications/notification-context';
import { setServerErrors } from '../../../lib/form';

/**
 * The submit of a step row's dialog (notification, trigger, condition): saves, says so and
 * closes; a refusal puts its field errors beside the fields and toasts `failure`.
 */
export function useRowSubmit<TInput extends FieldValues, TBody, TSaved>(
  form: UseFormReturn<TInput, unknown, TBody>,
  save: UseMutationResult<TSaved, Error, TBody>,
  {
    fields,
    failure,
    told,
    onClose,
  }: {
    fields: readonly FieldPath<TInput>[];
    failure: string;
    /** The success toast's title and message. */
    told: (saved: TSaved, body: TBody) => [string, string];
    onClose: () => void;
  },
) {
  const notify = useNotify();
  return form.handleSubmit((body) =>
    save.mutate(body, {
      onSuccess: (saved) => {
        notify.success(...told(saved, body));
        onClose();
      },
      onError: (error) => {
        setServerErrors(form, error, fields);
        notify.notifyFailure(failure, error);
      },
    }),
  );
}

/** A step row's dialog: its form, then Cancel and the submit button ("Saving…" while it runs). */
export function RowDialog({
  title,
  description,
  onClose,
  pending,
  onSubmit,
  submitLabel,
  children,
}: {
  title: string;
  description?: string;
  onClose: () => void;
  pending: boolean;
  onSubmit: FormEventHandler<HTMLFormElement>;
  submitLabel: string;
  children: ReactNode;
}) {
  return (
    <Dialog title={title} description={description} onClose={onClose} busy={pending}>
      <form className="form" onSubmit={onSubmit} noValidate aria-busy={pending}>
        {children}
        <DialogActions onCancel={onClose} pending={pending} pendingLabel="Saving…">
          {submitLabel}
        </DialogActions>
      </form>
    </Dialog>
  );
}
