import { useState } from 'react';
import { BulkFileActions } from '../../../components/bulk-file-actions';
import { PageHeader } from '../../../components/page-header';
import { useFailureToast } from '../../../lib/use-failure-toast';
import { useCheckedOutFiles, useFavouriteFiles } from '../api/file-queries';
import { FileTable } from '../components/file-table';

export function CheckedOutPage() {
  const [page, setPage] = useState(1);
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const list = useCheckedOutFiles(page);
  useFailureToast(list.error, list.errorUpdatedAt, 'Failed to load file data');
  return (
    <>
      <PageHeader title="Checked out">Files you have checked out: nobody else can change them.</PageHeader>
      <FileTable
        label="Checked-out files"
        rows={list.data?.items ?? []}
        selected={selected}
        onSelectionChange={setSelected}
        bulkActions={(ids) => <BulkFileActions ids={ids} onDone={() => setSelected(new Set())} />}
        page={list.data ? { ...list.data, onPage: setPage } : undefined}
        emptyText="You have no files checked out"
      />
    </>
  );
}

export function FavouritesPage() {
  const [page, setPage] = useState(1);
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const list = useFavouriteFiles(page);
  useFailureToast(list.error, list.errorUpdatedAt, 'Failed to load file data');
  return (
    <>
      <PageHeader title="Favourites">The files you marked as favourites.</PageHeader>
      <FileTable
        label="Favourite files"
        rows={list.data?.items ?? []}
        selected={selected}
        onSelectionChange={setSelected}
        bulkActions={(ids) => <BulkFileActions ids={ids} onDone={() => setSelected(new Set())} />}
        page={list.data ? { ...list.data, onPage: setPage } : undefined}
        emptyText="No favourites yet"
      />
    </>
  );
}
