import type { ReactNode } from 'react';
import {
  Cell,
  Checkbox,
  Column,
  type Key,
  Row,
  type Selection,
  type SortDescriptor,
  Table,
  TableBody,
  TableHeader,
} from 'react-aria-components';
import { Button } from './button';
import { shortcutRowProps } from './keyboard-shortcuts';
import { Pagination, type PaginationProps } from './pagination';
import { ScrollRegion } from './scroll-region';

export type { Selection, SortDescriptor };

export interface TableColumn<T> {
  id: string;
  label: string;
  /** Offer sorting by this column (the caller sorts, usually through the API). */
  sortable?: boolean;
  /** The column that names the row (read out with every cell). */
  isRowHeader?: boolean;
  cell: (row: T) => ReactNode;
}

export interface SortableTableProps<T> {
  /** Read by screen readers: "Files". */
  label: string;
  columns: TableColumn<T>[];
  rows: T[];
  rowKey: (row: T) => Key;
  sort?: SortDescriptor;
  onSortChange?: (sort: SortDescriptor) => void;
  /** Row selection; leave out for a table without it. */
  selected?: Selection;
  onSelectionChange?: (selection: Selection) => void;
  /** The actions on the selected rows, shown in a bar above the table while any are selected. */
  bulkActions?: (keys: Set<Key>) => ReactNode;
  /** A last column with each row's own actions (kept in sight on a narrow screen). */
  rowActions?: (row: T) => ReactNode;
  /** Paging under the table. */
  pagination?: PaginationProps;
  emptyText?: string;
  busy?: boolean;
}

function SelectionBox({ label }: { label?: string }) {
  return (
    <Checkbox slot="selection" className="table-checkbox" aria-label={label}>
      <span className="table-checkbox__box" aria-hidden="true" />
    </Checkbox>
  );
}

/**
 * A data table (React Aria's Table): sortable columns (click or Enter on a header), row
 * selection with checkboxes (Space on a row, Shift for a range, the header box for all),
 * a bar of bulk actions for the selected rows, and paging. Arrow keys move between cells.
 */
export function SortableTable<T>({
  label,
  columns,
  rows,
  rowKey,
  sort,
  onSortChange,
  selected,
  onSelectionChange,
  bulkActions,
  rowActions,
  pagination,
  emptyText = 'Nothing to show.',
  busy = false,
}: SortableTableProps<T>) {
  const selectable = onSelectionChange !== undefined;
  const keys: Set<Key> =
    selected === 'all' ? new Set(rows.map(rowKey)) : new Set(selected ? [...selected] : []);
  return (
    <div className="sortable-table">
      {selectable && keys.size > 0 ? (
        <div className="bulk-bar" role="toolbar" aria-label="Actions on the selected rows">
          <span className="bulk-bar__count" aria-live="polite">
            {keys.size} selected
          </span>
          {bulkActions?.(keys)}
          <Button variant="ghost" small onClick={() => onSelectionChange?.(new Set())}>
            Clear selection
          </Button>
        </div>
      ) : null}
      <ScrollRegion label={label}>
        <Table
          aria-label={label}
          className="data-table"
          aria-busy={busy || undefined}
          {...(sort ? { sortDescriptor: sort } : {})}
          {...(onSortChange ? { onSortChange } : {})}
          {...(selectable
            ? {
                selectionMode: 'multiple' as const,
                selectionBehavior: 'toggle' as const,
                selectedKeys: selected ?? new Set<Key>(),
                onSelectionChange,
              }
            : {})}
        >
          <TableHeader>
            {selectable ? (
              <Column className="cell-select">
                <SelectionBox />
              </Column>
            ) : null}
            {columns.map((column) => (
              <Column
                key={column.id}
                id={column.id}
                isRowHeader={column.isRowHeader}
                allowsSorting={column.sortable}
                className="data-table__column"
              >
                {({ allowsSorting, sortDirection }) => (
                  <span className="data-table__heading">
                    {column.label}
                    {allowsSorting ? (
                      <span aria-hidden="true" className="data-table__sort">
                        {sortDirection === 'ascending' ? '▲' : sortDirection === 'descending' ? '▼' : '↕'}
                      </span>
                    ) : null}
                  </span>
                )}
              </Column>
            ))}
            {rowActions ? (
              <Column className="cell-actions">
                <span className="sr-only">Actions</span>
              </Column>
            ) : null}
          </TableHeader>
          <TableBody renderEmptyState={() => <p className="muted data-table__empty">{emptyText}</p>}>
            {rows.map((row) => (
              <Row key={rowKey(row)} id={rowKey(row)} className="data-table__row" {...shortcutRowProps}>
                {selectable ? (
                  <Cell className="cell-select">
                    {/* Named "Select" plus the row's header cell: "Select report.pdf". */}
                    <SelectionBox label="Select" />
                  </Cell>
                ) : null}
                {columns.map((column) => (
                  <Cell key={column.id} className="data-table__cell" data-label={column.label}>
                    {column.cell(row)}
                  </Cell>
                ))}
                {rowActions ? <Cell className="cell-actions">{rowActions(row)}</Cell> : null}
              </Row>
            ))}
          </TableBody>
        </Table>
      </ScrollRegion>
      {pagination ? <Pagination {...pagination} /> : null}
    </div>
  );
}
