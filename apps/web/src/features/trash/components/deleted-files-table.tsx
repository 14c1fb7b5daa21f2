import type { TTrashFile } from '@quire/contract';
import type { ReactNode } from 'react';
import { Button } from '../../../components/button';
import { type PageAnswer, pagingOf } from '../../../components/pagination';
import { SortableTable, type TableColumn } from '../../../components/sortable-table';
import { formatShortDate } from '../../../lib/format';

type Page = PageAnswer & { items: TTrashFile[] };

/** Deleted files, a page at a time: name, category (marked when deleted too), who and when. */
export function DeletedFilesTable({
  label,
  data,
  emptyText,
  showDeletedBy = false,
  busy,
  rowActions,
  onPage,
}: {
  label: string;
  data: Page | undefined;
  emptyText: string;
  /** A "Deleted by" column (the whole trash; a person's own list needs none). */
  showDeletedBy?: boolean;
  busy?: boolean;
  rowActions?: ((file: TTrashFile) => ReactNode) | undefined;
  onPage: (page: number) => void;
}) {
  const columns: TableColumn<TTrashFile>[] = [
    { id: 'name', label: 'Name', isRowHeader: true, cell: (f) => f.name },
    {
      id: 'folder',
      label: 'Category',
      cell: (f) => `${f.folder_name ?? ''}${f.folder_live ? '' : ' (deleted)'}`,
    },
    ...(showDeletedBy
      ? [{ id: 'by', label: 'Deleted by', cell: (f: TTrashFile) => f.deleted_by?.name ?? '' }]
      : []),
    { id: 'when', label: 'Deleted', cell: (f) => formatShortDate(f.deleted_at) },
  ];
  return (
    <SortableTable<TTrashFile>
      label={label}
      rows={data?.items ?? []}
      rowKey={(f) => f.id}
      busy={busy}
      emptyText={emptyText}
      columns={columns}
      rowActions={rowActions}
      pagination={pagingOf(data, 'files', onPage)}
    />
  );
}

/** A row's Restore button. */
export function RestoreButton({ file, onClick }: { file: TTrashFile; onClick: () => void }) {
  return (
    <Button small aria-label={`Restore ${file.name}`} onClick={onClick}>
      Restore
    </Button>
  );
}
