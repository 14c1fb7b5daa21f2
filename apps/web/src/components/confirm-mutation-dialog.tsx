import { useState } from 'react';
import { ApiError } from '../lib/api-error';
import { ConfirmDialog, type ConfirmDialogProps } from './confirm-dialog';
import { useNotify } from './notifications/notification-context';

/** A mutation, as TanStack Query's `useMutation` gives it. */
export interface ConfirmedMutation<V, R = unknown> {
  mutate: (value: V, options: { onSuccess: (result: R) => void; onError: (error: Error) => void }) => void;
  isPending: boolean;
}

/**
 * "Are you sure?", then the action: on confirmation runs `mutation` with `value`, then toasts
 * `success` (title, second line; none without it), calls `onDone` and closes; or toasts
 * `failure` with the error (the error-message rule) and stays open, unless `closeOnFailure`.
 * With `conflictInPlace`, a 409 refusal (the thing is in use) is said in the dialog in place
 * of its text, and not toasted.
 */
export function ConfirmMutationDialog<V, R>({
  mutation,
  value,
  success,
  failure,
  closeOnFailure = false,
  conflictInPlace = false,
  onDone,
  onClose,
  children,
  ...dialog
}: Omit<ConfirmDialogProps, 'pending' | 'onConfirm' | 'onCancel'> & {
  mutation: ConfirmedMutation<V, R>;
  value: V;
  success?: readonly [title: string, detail?: string];
  /** The failure toast's title: "Failed to … !". */
  failure: string;
  closeOnFailure?: boolean;
  conflictInPlace?: boolean;
  onDone?: (result: R) => void;
  onClose: () => void;
}) {
  const notify = useNotify();
  const [conflict, setConflict] = useState<string | null>(null);
  return (
    <ConfirmDialog
      {...dialog}
      pending={mutation.isPending}
      onCancel={onClose}
      onConfirm={() =>
        mutation.mutate(value, {
          onSuccess: (result) => {
            if (success) notify.success(...success);
            onDone?.(result);
            onClose();
          },
          onError: (error) => {
            if (conflictInPlace && error instanceof ApiError && error.status === 409)
              return setConflict(error.message);
            notify.notifyFailure(failure, error);
            if (closeOnFailure) onClose();
          },
        })
      }
    >
      {conflict ? (
        <p className="alert alert--error" role="alert">
          {conflict}
        </p>
      ) : (
        children
      )}
    </ConfirmDialog>
  );
}
