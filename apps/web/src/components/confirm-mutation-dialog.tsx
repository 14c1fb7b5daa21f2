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
 */
export function ConfirmMutationDialog<V, R>({
  mutation,
  value,
  success,
  failure,
  closeOnFailure = false,
  onDone,
  onClose,
  ...dialog
}: Omit<ConfirmDialogProps, 'pending' | 'onConfirm' | 'onCancel'> & {
  mutation: ConfirmedMutation<V, R>;
  value: V;
  success?: readonly [title: string, detail?: string];
  /** The failure toast's title: "Failed to … !". */
  failure: string;
  closeOnFailure?: boolean;
  onDone?: (result: R) => void;
  onClose: () => void;
}) {
  const notify = useNotify();
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
            notify.notifyFailure(failure, error);
            if (closeOnFailure) onClose();
          },
        })
      }
    />
  );
}
