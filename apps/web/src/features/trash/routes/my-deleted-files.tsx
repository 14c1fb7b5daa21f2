import { useState } from 'react';
import { PageHeader } from '../../../components/page-header';
import { useFailureToast } from '../../../lib/use-failure-toast';
import { useMyDeletedFiles, useRestoreMyDeletedFile } from '../api/my-deleted-files';
import { DeletedFilesTable, RestoreButton } from '../components/deleted-files-table';
import { useRestoreDialog } from '../components/restore-dialog';

/** The files the person deleted themselves, each restored while they may still delete it. */
export function MyDeletedFilesPage() {
  const [page, setPage] = useState(1);
  const list = useMyDeletedFiles(page);
  useFailureToast(list.error, list.errorUpdatedAt, 'Failed to load deleted files');
  const restore = useRestoreDialog({
    restore: useRestoreMyDeletedFile(),
    failure: 'Failed to restore file!',
    restoredText: (file) => `${file.name} is back in ${file.folder_name ?? 'its category'}.`,
  });
  return (
    <>
      <PageHeader title="My deleted files">
        The files you deleted. Restore one to put it back; a File Control admin sees everyone's.
      </PageHeader>
      <DeletedFilesTable
        label="My deleted files"
        data={list.data}
        busy={list.isFetching}
        emptyText="You have no deleted files"
        rowActions={(f) => <RestoreButton file={f} onClick={() => restore.open(f)} />}
        onPage={setPage}
      />
      {restore.dialog}
    </>
  );
}
