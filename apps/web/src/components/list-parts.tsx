// The pieces an admin list page repeats: the toolbar that offers "New …" or says "Read only",
// the row's Edit and Delete, and the search-and-status filter above the table.

import { type ReactNode, useId } from 'react';
import type { DraftRows } from '../lib/use-draft-rows';
import { Button } from './button';
import { RowAction } from './data-table';

/** Which dialog a list page has open: create, edit a row, delete a row, or none. */
export type ListDialog<T> =
  | { kind: 'create' }
  | { kind: 'edit'; item: T }
  | { kind: 'delete'; item: T }
  | null;

/** The list's toolbar: its actions for those who may write, else a "Read only" badge. */
export function WriteActions({ canWrite, children }: { canWrite: boolean; children: ReactNode }) {
  return (
    <div className="section-header">
      {canWrite ? children : <span className="badge badge--neutral">Read only</span>}
    </div>
  );
}

/** The primary "New …" button of a list (in its toolbar or its empty state). */
export function NewButton({ onClick, children }: { onClick: () => void; children: ReactNode }) {
  return (
    <Button variant="primary" onClick={onClick}>
      {children}
    </Button>
  );
}

/** A row's actions (`QueryTable`'s `rowActions`): Edit (or `edit`, such as "Design") and Delete, named after the row. */
export function EditDeleteActions({
  name,
  edit = 'Edit',
  onEdit,
  onDelete,
}: {
  /** The row's name, in the buttons' accessible names ("Delete Invoices"). */
  name: string;
  edit?: string;
  onEdit: () => void;
  onDelete: () => void;
}) {
  return (
    <span className="row-actions">
      <RowAction label={`${edit} ${name}`} onClick={onEdit}>
        {edit}
      </RowAction>
      <RowAction label={`Delete ${name}`} danger onClick={onDelete}>
        Delete
      </RowAction>
    </span>
  );
}

/**
 * `QueryTable`'s `rowActions` for a list whose rows open its `ListDialog`: Edit and Delete,
 * named after the row (`nameOf`), each opening that dialog on it; false for those who may not
 * write.
 */
export function listDialogActions<T>(
  canWrite: boolean,
  nameOf: (row: T) => string,
  open: (dialog: ListDialog<T>) => void,
) {
  return (
    canWrite &&
    ((row: T) => (
      <EditDeleteActions
        name={nameOf(row)}
        onEdit={() => open({ kind: 'edit', item: row })}
        onDelete={() => open({ kind: 'delete', item: row })}
      />
    ))
  );
}

/** A list's filters: a search box and a status select, as a labelled search landmark. */
export function SearchAndStatus({
  label,
  placeholder,
  search,
  onSearch,
  status,
  onStatus,
  statuses,
}: {
  /** The landmark's name: "Filter users". */
  label: string;
  placeholder: string;
  search: string;
  onSearch: (search: string) => void;
  status: string;
  onStatus: (status: string) => void;
  statuses: readonly { value: string; label: string }[];
}) {
  const id = useId();
  return (
    <search className="toolbar" aria-label={label}>
      <div className="field field--grow">
        <label htmlFor={`${id}-search`}>Search</label>
        <input
          id={`${id}-search`}
          type="search"
          placeholder={placeholder}
          value={search}
          onChange={(e) => onSearch(e.target.value)}
        />
      </div>
      <div className="field">
        <label htmlFor={`${id}-status`}>Status</label>
        <select id={`${id}-status`} value={status} onChange={(e) => onStatus(e.target.value)}>
          {statuses.map((s) => (
            <option key={s.value} value={s.value}>
              {s.label}
            </option>
          ))}
        </select>
      </div>
    </search>
  );
}

/** A row's last cell in a list kept in order (`useDraftRows`): Up, Down and Remove, named after the row. */
export function MoveRemoveCell({
  name,
  index,
  rows,
}: {
  /** The row's name, in the buttons' accessible names ("Move Invoices up"). */
  name: string;
  index: number;
  rows: DraftRows;
}) {
  return (
    <td className="cell-actions">
      <span className="row-actions">
        <Button
          variant="link"
          small
          aria-label={`Move ${name} up`}
          disabled={index === 0}
          onClick={() => rows.move(index, -1)}
        >
          Up
        </Button>
        <Button
          variant="link"
          small
          aria-label={`Move ${name} down`}
          disabled={index === rows.rows.length - 1}
          onClick={() => rows.move(index, 1)}
        >
          Down
        </Button>
        <Button variant="link" small danger aria-label={`Remove ${name}`} onClick={() => rows.remove(index)}>
          Remove
        </Button>
      </span>
    </td>
  );
}
