import type { TStep, TWorkflow } from '@quire/contract';
import type { ReactNode } from 'react';
import { Button } from '../../../components/button';

/** What a panel of a step's details is given: the step, its workflow, and whether one may change it. */
export interface StepPanelProps {
  step: TStep;
  workflow: TWorkflow;
  canWrite: boolean;
}

/**
 * A step detail's list (notifications, triggers, conditions): each item with Edit and Delete
 * for those who may change the step, what to say when there is none, and the Add button.
 * The panel keeps its own dialogs; this draws the list and calls back.
 */
export function DetailList<T extends { id: number }>({
  items,
  label,
  ordered = false,
  empty,
  canWrite,
  nameOf,
  children,
  onEdit,
  onDelete,
  addLabel,
  onAdd,
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
  onEdit: (item: T) => void;
  onDelete: (item: T) => void;
  addLabel: string;
  onAdd: () => void;
  addDisabled?: boolean;
}) {
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
                    onClick={() => onEdit(item)}
                  >
                    Edit
                  </Button>
                  <Button
                    variant="link"
                    small
                    danger
                    aria-label={`Delete ${nameOf(item)}`}
                    onClick={() => onDelete(item)}
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
          <Button variant="ghost" disabled={addDisabled} onClick={onAdd}>
            {addLabel}
          </Button>
        </div>
      ) : null}
    </>
  );
}
