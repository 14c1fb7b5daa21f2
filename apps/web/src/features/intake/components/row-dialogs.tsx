import type { ReactNode } from 'react';
import { type ConfirmedMutation, ConfirmMutationDialog } from '../../../components/confirm-mutation-dialog';
import { RowAction } from '../../../components/data-table';
import { Dialog } from '../../../components/dialog';

/** A row's Edit and Remove buttons, named after the row ("Remove Scanner"). */
export function EditRemove({
  name,
  onEdit,
  onRemove,
}: {
  name: string;
  onEdit: () => void;
  onRemove: () => void;
}) {
  return (
    <>
      <RowAction label={`Edit ${name}`} onClick={onEdit}>
        Edit
      </RowAction>
      <RowAction label={`Remove ${name}`} danger onClick={onRemove}>
        Remove
      </RowAction>
    </>
  );
}

/**
 * The Edit dialog (the row's form) and the Remove confirmation of a row of the sources or the
 * rules list, open while `editing` or `removing` holds a row; `children` says what removal does.
 */
export function RowDialogs<T extends { id: number; name: string }>({
  noun,
  editing,
  setEditing,
  form,
  removing,
  setRemoving,
  remove,
  removed,
  children,
}: {
  noun: 'source' | 'rule';
  editing: T | null;
  setEditing: (row: T | null) => void;
  form: (row: T, done: () => void) => ReactNode;
  removing: T | null;
  setRemoving: (row: T | null) => void;
  remove: ConfirmedMutation<number>;
  removed: (row: T) => string;
  children: (row: T) => ReactNode;
}) {
  return (
    <>
      {editing ? (
        <Dialog title={`Edit ${editing.name}`} onClose={() => setEditing(null)} size="large">
          {form(editing, () => setEditing(null))}
        </Dialog>
      ) : null}
      {removing ? (
        <ConfirmMutationDialog
          title={`Remove this ${noun}?`}
          confirmLabel={`Remove ${noun}`}
          tone="danger"
          mutation={remove}
          value={removing.id}
          success={[`Intake ${noun} removed`, removed(removing)]}
          failure={`Failed to remove intake ${noun}!`}
          onClose={() => setRemoving(null)}
        >
          {children(removing)}
        </ConfirmMutationDialog>
      ) : null}
    </>
  );
}
