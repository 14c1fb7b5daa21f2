import type { TFileSummary } from '@quire/contract';
import type { ReactNode } from 'react';
import type { Key } from 'react-aria-components';
import { Link } from 'react-router';
import { Pagination, pagingOf } from '../../../components/pagination';
import { useRangeSelection } from '../../../components/range-selection';
import { SortableTable, type TableColumn } from '../../../components/sortable-table';
import { Thumbnail } from '../../../components/thumbnail';
import { formatBytes, formatShortDate } from '../../../lib/format';

/**
 * A page of files: name (to the file page), number, owner, version, size, filed. A list opts
 * in to selection with `selected` and `onSelectionChange` (file ids; the header box selects
 * this page, Shift-click a range) and offers `bulkActions` on the selected ids.
 */
export function FileTable<T extends TFileSummary>({
  label,
  rows,
  page,
  extra = [],
  rowActions,
  emptyText = 'No files',
  busy,
  selected,
  onSelectionChange,
  bulkActions,
  dateLabel = 'Filed',
}: {
  label: string;
  rows: T[];
  page?: { page: number; last_page: number; total: number; quantity: number; onPage: (p: number) => void };
  extra?: TableColumn<T>[];
  rowActions?: (row: T) => ReactNode;
  emptyText?: string;
  busy?: boolean;
  /** The selected file ids; leave out (with onSelectionChange) for a list without selection. */
  selected?: ReadonlySet<number>;
  onSelectionChange?: (ids: Set<number>) => void;
  /** The actions on the selected files, in the bar above the table. */
  bulkActions?: (ids: number[]) => ReactNode;
  /** The heading of the date column (created_at): "Uploaded" where the files are not filed yet. */
  dateLabel?: string;
}) {
  const toIds = (keys: Iterable<Key>) => new Set([...keys].map(Number));
  const ids = rows.map((f) => f.id);
  // Only this page's files count as selected: another page's selection is not acted on.
  const shown = new Set(ids.filter((id) => selected?.has(id)));
  const range = useRangeSelection(ids, shown, (next) => onSelectionChange?.(next));
  const columns: TableColumn<T>[] = [
    {
      id: 'name',
      label: 'Name',
      isRowHeader: true,
      cell: (f) => (
        <span className="file-name-cell">
          <Thumbnail fileId={f.id} mimeType={f.mime_type} version={f.updated_at} />
          <Link to={`/files/${f.id}`}>{f.name}</Link>
        </span>
      ),
    },
    { id: 'number', label: 'Number', cell: (f) => f.incremental ?? '' },
    { id: 'owner', label: 'Owner', cell: (f) => f.owner.name },
    {
      id: 'state',
      label: 'State',
      cell: (f) =>
        f.checked_out_by
          ? `Checked out by ${f.checked_out_by.name}`
          : f.locked_by
            ? `Locked by ${f.locked_by.name}`
            : '',
    },
    ...extra,
    { id: 'version', label: 'Version', cell: (f) => f.version },
    { id: 'size', label: 'Size', cell: (f) => formatBytes(f.size) },
    { id: 'filed', label: dateLabel, cell: (f) => formatShortDate(f.created_at) },
  ];
  return (
    <div className="file-table" {...(onSelectionChange ? range.captureProps : {})}>
      <SortableTable
        label={label}
        columns={columns}
        rows={rows}
        rowKey={(f) => f.id}
        rowActions={rowActions}
        emptyText={emptyText}
        busy={busy}
        {...(onSelectionChange
          ? {
              selected: new Set<Key>(shown),
              onSelectionChange: (s) =>
                s === 'all' ? onSelectionChange(new Set(ids)) : range.onSelectionChange(toIds(s)),
              bulkActions: bulkActions ? (keys) => bulkActions([...toIds(keys)]) : undefined,
            }
          : {})}
        pagination={pagingOf(page, 'files', (p) => page?.onPage(p), busy)}
      />
    </div>
  );
}

export { Pagination };
