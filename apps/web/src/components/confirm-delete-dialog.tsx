import type { ReactNode } from 'react';
import { type ConfirmedMutation, ConfirmMutationDialog } from './confirm-mutation-dialog';

/** A deleting mutation, as TanStack Query's `useMutation` gives it (its answer unread). */
export type DeleteMutation<V> = ConfirmedMutation<V>;

/**
 * "Delete the <noun> <name>?" (without a name: "Delete this <noun>?"): on confirmation runs
 * `remove` with `value`, then toasts "<Noun> deleted" with `detail` ("<name> was deleted." for a
 * named thing) and closes; or toasts `failure` ("Failed to delete <noun>!") and stays open,
 * unless `closeOnFailure`. `conflictInPlace` and `onDone` are `ConfirmMutationDialog`'s.
 */
export function ConfirmDeleteDialog<V>({
  noun,
  name,
  remove,
  value,
  detail = name === undefined ? undefined : `${name} was deleted.`,
  confirmLabel = `Delete ${noun}`,
  pendingLabel = name === undefined ? undefined : 'Deleting…',
  failure = `Failed to delete ${noun}!`,
  closeOnFailure = false,
  conflictInPlace = false,
  onDone,
  onClose,
  children,
}: {
  /** "notification", "value list". */
  noun: string;
  /** The name of the thing deleted, in the title. */
  name?: string;
  remove: DeleteMutation<V>;
  value: V;
  /** The success toast's second line. */
  detail?: string;
  confirmLabel?: string;
  /** The confirm button's words while it runs: "Deleting…" for a named thing, else its label. */
  pendingLabel?: string;
  failure?: string;
  closeOnFailure?: boolean;
  conflictInPlace?: boolean;
  onDone?: () => void;
  onClose: () => void;
  children: ReactNode;
}) {
  const Noun = noun.charAt(0).toUpperCase() + noun.slice(1);
  return (
    <ConfirmMutationDialog
      title={name === undefined ? `Delete this ${noun}?` : `Delete the ${noun} ${name}?`}
      confirmLabel={confirmLabel}
      pendingLabel={pendingLabel}
      tone="danger"
      mutation={remove}
      value={value}
      success={[`${Noun} deleted`, detail]}
      failure={failure}
      closeOnFailure={closeOnFailure}
      conflictInPlace={conflictInPlace}
      onDone={onDone}
      onClose={onClose}
    >
      {children}
    </ConfirmMutationDialog>
  );
}
