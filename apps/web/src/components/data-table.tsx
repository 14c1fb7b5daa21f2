import { type Key, type ReactNode, useLayoutEffect, useRef } from 'react';
import { formatDate, formatDateTime, formatShortDate, relativeTime } from '../lib/format';
import { Button } from './button';
import { Pagination, type PaginationProps } from './pagination';
import { ScrollRegion } from './scroll-region';

/** What `QueryState` reads of a TanStack query. */
export interface ListQuery {
  isPending: boolean;
  isError: boolean;
  data: unknown;
  refetch: () => unknown;
}

/**
 * What the list is, for its loading and failed states: `what: 'users'` says "Loading users…"
 * and "The users could not be loaded"; other words are given as `loadingText` and `failedText`.
 */
type StateWords = { what: string } | { loadingText: string; failedText: string };

type QueryStateParts = {
  query: ListQuery;
  /** Nothing to show: `empty` stands in for the list (left out for one thing, never empty). */
  isEmpty?: boolean;
  /** The heading, a line and any action of the empty state. */
  empty?: ReactNode;
  /** Each state as a card of its own (false inside a card already). */
  card?: boolean;
  children: ReactNode;
};

export type QueryStateProps = StateWords & QueryStateParts;

/** An empty state's usual words: its heading, then a line. */
export function EmptyText({ title, children }: { title: string; children: ReactNode }) {
  return (
    <>
      <h2>{title}</h2>
      <p className="muted">{children}</p>
    </>
  );
}

/**
 * A list's loading, failed (with Try again) and empty states, then the list. A failed reload
 * keeps the rows already shown; its toast comes from `useFailureToast`.
 */
export function QueryState({
  query,
  isEmpty = false,
  empty = null,
  card = true,
  children,
  ...words
}: QueryStateProps) {
  const { loadingText, failedText } =
    'what' in words
      ? { loadingText: `Loading ${words.what}…`, failedText: `The ${words.what} could not be loaded` }
      : words;
  const className = card ? 'card empty-state' : 'empty-state';
  if (query.isPending)
    return (
      <div className={className} role="status">
        <span className="spinner" aria-hidden="true" />
        <p className="muted">{loadingText}</p>
      </div>
    );
  if (query.isError && !query.data)
    return (
      <div className={className} role="alert">
        <h2>{failedText}</h2>
        <Button variant="ghost" onClick={() => query.refetch()}>
          Try again
        </Button>
      </div>
    );
  if (isEmpty) return <div className={className}>{empty}</div>;
  return <>{children}</>;
}

export interface DataTableProps {
  /** Read by screen readers: "Users". */
  caption: string;
  columns: readonly string[];
  /** A last, unlabelled column for the row actions. */
  actions?: boolean;
  /** A new page is loading. */
  busy?: boolean;
  /** Previous / Next under the table, for a list that comes in pages (`pagingOf`). */
  pagination?: PaginationProps | undefined;
  /** The rows. */
  children: ReactNode;
}

/**
 * Gives each body cell of a table its column's name as `data-label`, which the narrow-screen
 * card layout shows before the value. Cells spanning several columns are left unlabelled.
 */
export function labelCells(table: HTMLTableElement) {
  const heads = [...table.querySelectorAll('thead th')].map((th) => th.textContent?.trim() ?? '');
  for (const row of table.tBodies[0]?.rows ?? []) {
    let column = 0;
    for (const cell of row.cells) {
      if (cell.colSpan === 1) cell.dataset.label = heads[column] ?? '';
      else delete cell.dataset.label;
      column += cell.colSpan;
    }
  }
}

/** The unlabelled head of a table's last column, its rows' actions (named for screen readers). */
export function ActionsHead({ className }: { className?: string }) {
  return (
    <th scope="col" className={className}>
      <span className="sr-only">Actions</span>
    </th>
  );
}

/** A table of rows with its caption and column headers, and its pagination if it has pages. */
export function DataTable({
  caption,
  columns,
  actions = false,
  busy = false,
  pagination,
  children,
}: DataTableProps) {
  const tableRef = useRef<HTMLTableElement>(null);
  // After every render: rows come and go with paging and filters.
  useLayoutEffect(() => {
    if (tableRef.current) labelCells(tableRef.current);
  });
  return (
    <>
      <ScrollRegion label={caption}>
        <table ref={tableRef} className="data-table" aria-busy={busy || undefined}>
          <caption className="sr-only">{caption}</caption>
          <thead>
            <tr>
              {columns.map((column) => (
                <th key={column} scope="col">
                  {column}
                </th>
              ))}
              {actions ? <ActionsHead className="cell-actions" /> : null}
            </tr>
          </thead>
          <tbody>{children}</tbody>
        </table>
      </ScrollRegion>
      {pagination ? <Pagination {...pagination} /> : null}
    </>
  );
}

export type QueryTableProps<T> = StateWords &
  Omit<QueryStateParts, 'isEmpty' | 'children'> &
  Omit<DataTableProps, 'actions' | 'children'> & {
    /** The query's rows (none yet while it loads); none at all: `empty` stands in for the table. */
    rows: readonly T[] | undefined;
    /** A row's cells, but its actions (`index`: its place among `rows`). */
    cells: (row: T, index: number) => ReactNode;
    /** A row's actions, in a last cell under an unlabelled head; false for those who may not act. */
    rowActions?: ((row: T, index: number) => ReactNode) | false;
  };

/**
 * A query's rows as a `DataTable` within its `QueryState`: one row per item, keyed by its id,
 * and the actions cell (with its column) only where `rowActions` is given.
 */
export function QueryTable<T extends { id: Key }>({
  rows,
  cells,
  rowActions = false,
  caption,
  columns,
  busy = false,
  pagination,
  ...state
}: QueryTableProps<T>) {
  return (
    <QueryState {...state} isEmpty={(rows?.length ?? 0) === 0}>
      <DataTable
        caption={caption}
        columns={columns}
        actions={rowActions !== false}
        busy={busy}
        pagination={pagination}
      >
        {rows?.map((row, index) => (
          <tr key={row.id}>
            {cells(row, index)}
            {rowActions ? <td className="cell-actions">{rowActions(row, index)}</td> : null}
          </tr>
        ))}
      </DataTable>
    </QueryState>
  );
}

/** One action in a row: a small link-styled button named for its row ("Edit Finance"). */
export function RowAction({
  children,
  label,
  danger = false,
  onClick,
}: {
  children: ReactNode;
  /** The accessible name, which says which row it acts on. */
  label: string;
  danger?: boolean;
  onClick: () => void;
}) {
  return (
    <button
      type="button"
      className={`button button--link button--small${danger ? ' is-danger' : ''}`}
      aria-label={label}
      onClick={onClick}
    >
      {children}
    </button>
  );
}

/**
 * A moment as a date, a short date ("12 Mar" this year) or "5 minutes ago", with the exact
 * date and time on hover.
 */
export function Timestamp({
  iso,
  show = 'relative',
}: {
  iso: string;
  show?: 'relative' | 'date' | 'short-date';
}) {
  const text =
    show === 'date' ? formatDate(iso) : show === 'short-date' ? formatShortDate(iso) : relativeTime(iso);
  return (
    <time dateTime={iso} title={formatDateTime(iso)} className="nowrap">
      {text}
    </time>
  );
}

/** Loads a list again, saying so while it does. */
export function RefreshButton({
  query,
}: {
  query: { isFetching: boolean; isPending: boolean; refetch: () => unknown };
}) {
  return (
    <Button variant="ghost" small onClick={() => query.refetch()} disabled={query.isFetching}>
      {query.isFetching && !query.isPending ? 'Refreshing…' : 'Refresh'}
    </Button>
  );
}
