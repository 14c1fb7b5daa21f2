import type { ReactNode } from 'react';
import { ActionsHead } from './data-table';

/**
 * A small table inside a card, a form or a dialog (no paging, sorting or phone cards, unlike
 * `DataTable`): the caption screen readers read, a header cell per column (a null column is
 * left out, `actions` adds one for the rows' actions), then the rows.
 */
export function PlainTable({
  caption,
  columns,
  actions = false,
  children,
}: {
  caption: string;
  columns: readonly (string | null)[];
  /** A last, unlabelled column for the row actions. */
  actions?: boolean;
  children: ReactNode;
}) {
  return (
    <div className="table-wrap">
      <table className="data-table">
        <caption className="sr-only">{caption}</caption>
        <thead>
          <tr>
            {columns.map((column, i) =>
              column === null ? null : (
                // biome-ignore lint/suspicious/noArrayIndexKey: a table's columns never reorder
                <th scope="col" key={i}>
                  {column}
                </th>
              ),
            )}
            {actions ? <ActionsHead /> : null}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}
