import { useState } from 'react';
import { BulkFileActions } from '../../../components/bulk-file-actions';
import { PageHeader } from '../../../components/page-header';
import { useFailureToast } from '../../../lib/use-failure-toast';
import { useCheckedOutFiles, useFavouriteFiles } from '../api/file-queries';
import { FileTable } from '../components/file-table';

/** One of a person's own lists of files: a page at a time, with the bulk actions on those chosen. */
function PersonalList({
  useList,
  title,
  lead,
  label,
  emptyText,
}: {
  useList: typeof useCheckedOutFiles | typeof useFavouriteFiles;
  title: string;
  lead: string;
  label: string;
  emptyText: string;
}) {
  const [page, setPage] = useState(1);
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const list = useList(page);
  useFailureToast(list.error, list.errorUpdatedAt, 'Failed to load file data');
  return (
    <>
      <PageHeader title={title}>{lead}</PageHeader>
      <FileTable
        label={label}
        rows={list.data?.items ?? []}
        selected={selected}
        onSelectionChange={setSelected}
        bulkActions={(ids) => <BulkFileActions ids={ids} onDone={() => setSelected(new Set())} />}
        page={list.data ? { ...list.data, onPage: setPage } : undefined}
        emptyText={emptyText}
      />
    </>
  );
}

export function CheckedOutPage() {
  return (
    <PersonalList
      useList={useCheckedOutFiles}
      title="Checked out"
      lead="Files you have checked out: nobody else can change them."
      label="Checked-out files"
      emptyText="You have no files checked out"
    />
  );
}

export function FavouritesPage() {
  return (
    <PersonalList
      useList={useFavouriteFiles}
      title="Favourites"
      lead="The files you marked as favourites."
      label="Favourite files"
      emptyText="No favourites yet"
    />
  );
}
