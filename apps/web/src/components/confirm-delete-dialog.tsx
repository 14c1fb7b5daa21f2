import type { ReactNode } from 'react';
import { type ConfirmedMutation, ConfirmMutationDialog } from './confirm-mutation-dialog';

/** A deleting mutation, as TanStack Query's `useMutation` gives it (its answer unread). */
export type DeleteMutation<V> = ConfirmedMutation<V>;

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
  const Noun = noun.charAt(0).toUpperCase() + noun.slice(1);
  return (
    <ConfirmMutationDialog
      title={`Delete this ${noun}?`}
      confirmLabel={`Delete ${noun}`}
      tone="danger"
      mutation={remove}
      value={value}
      success={[`${Noun} deleted`, detail]}
      failure={`Failed to delete ${noun}!`}
      closeOnFailure
      onClose={onClose}
    >
      {children}
    </ConfirmMutationDialog>
  );
}
