import type { ReactNode } from 'react';
import { ConfirmDialog } from './confirm-dialog';
import { useNotify } from './notifications/notification-context';

/** A deleting mutation, as TanStack Query's `useMutation` gives it. */
export interface DeleteMutation<V> {
  mutate: (value: V, options: { onSuccess: () => void; onError: (error: Error) => void }) => void;
  isPending: boolean;
}

/**
 * "Delete this <noun>?" for one row of a list: on confirmation runs `remove` with `value`,
 * then toasts "<Noun> deleted" (with `detail`) or "Failed to delete <noun>!", and closes
 * either way.
 */
export function ConfirmDeleteDialog<V>({
  noun,
  remove,
  value,
  detail,
  onClose,
  children,
}: {
  /** "notification", "trigger". */
  noun: string;
  remove: DeleteMutation<V>;
  value: V;
  /** The success toast's second line. */
  detail?: string;
  onClose: () => void;
  children: ReactNode;
}) {
  const notify = useNotify();
  const Noun = noun.charAt(0).toUpperCase() + noun.slice(1);
  return (
    <ConfirmDialog
      title={`Delete this ${noun}?`}
      confirmLabel={`Delete ${noun}`}
      tone="danger"
      pending={remove.isPending}
      onCancel={onClose}
      onConfirm={() =>
        remove.mutate(value, {
          onSuccess: () => {
            notify.success(`${Noun} deleted`, detail);
            onClose();
          },
          onError: (error) => {
            notify.notifyFailure(`Failed to delete ${noun}!`, error);
            onClose();
          },
        })
      }
    >
      {children}
    </ConfirmDialog>
  );
}
