import type { TStep, TWorkflow } from '@quire/contract';
import { type ReactNode, useState } from 'react';
import { Button } from '../../../components/button';
import { ConfirmDeleteDialog, type DeleteMutation } from '../../../components/confirm-delete-dialog';

/** What a panel of a step's details is given: the step, its workflow, and whether one may change it. */
export interface StepPanelProps {
  step: TStep;
  workflow: TWorkflow;
  canWrite: boolean;
}

/** How a detail is deleted: its confirmation says "Delete this <noun>?" above `say(item)`. */
export interface DetailDeletion<T> {
  /** "notification", "trigger". */
  noun: string;
  remove: DeleteMutation<number>;
  /** The success toast's second line. */
  detail?: (item: T) => string;
  say: (item: T) => ReactNode;
}

/**
 * A step detail's list (notifications, triggers, conditions): each item with Edit and Delete
 * for those who may change the step, what to say when there is none, and the Add button.
 * Add and Edit open `form` (no item: a new one); Delete asks first, as `deletion` says.
 */
export function DetailList<T extends { id: number }>({
  items,
  label,
  ordered = false,
  empty,
  canWrite,
  nameOf,
  children,
  form,
  deletion,
  addLabel,
  addDisabled = false,
}: {
  items: T[];
  /** The list's accessible name. */
  label: string;
  ordered?: boolean;
  empty: ReactNode;
  canWrite: boolean;
  /** How the Edit and Delete buttons name the item ("the trigger On a date"). */
  nameOf: (item: T) => string;
  /** An item's text. */
  children: (item: T, index: number) => ReactNode;
  /** The dialog that adds an item (`item` undefined) or edits one. */
  form: (item: T | undefined, onClose: () => void) => ReactNode;
  deletion: DetailDeletion<T>;
  addLabel: string;
  addDisabled?: boolean;
}) {
  const [open, setOpen] = useState<{ kind: 'edit'; item?: T } | { kind: 'delete'; item: T } | null>(null);
  const close = () => setOpen(null);
  const List = ordered ? 'ol' : 'ul';
  return (
    <>
      {items.length ? (
        <List className="detail-list" aria-label={label}>
          {items.map((item, index) => (
            <li key={item.id} className="detail-list__item">
              <span>{children(item, index)}</span>
              {canWrite ? (
                <span className="row-actions">
                  <Button
                    variant="link"
                    small
                    aria-label={`Edit ${nameOf(item)}`}
                    onClick={() => setOpen({ kind: 'edit', item })}
                  >
                    Edit
                  </Button>
                  <Button
                    variant="link"
                    small
                    danger
                    aria-label={`Delete ${nameOf(item)}`}
                    onClick={() => setOpen({ kind: 'delete', item })}
                  >
                    Delete
                  </Button>
                </span>
              ) : null}
            </li>
          ))}
        </List>
      ) : (
        <p className="muted">{empty}</p>
      )}
      {canWrite ? (
        <div>
          <Button variant="ghost" disabled={addDisabled} onClick={() => setOpen({ kind: 'edit' })}>
            {addLabel}
          </Button>
        </div>
      ) : null}
      {open?.kind === 'edit' ? form(open.item, close) : null}
      {open?.kind === 'delete' ? (
        <ConfirmDeleteDialog
          noun={deletion.noun}
          remove={deletion.remove}
          value={open.item.id}
          detail={deletion.detail?.(open.item)}
          closeOnFailure
          onClose={close}
        >
          {deletion.say(open.item)}
        </ConfirmDeleteDialog>
      ) : null}
    </>
  );
}
