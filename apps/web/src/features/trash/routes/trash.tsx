import type { TTrashFile } from '@quire/contract';
import { useState } from 'react';
import { Button } from '../../../components/button';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { useNotify } from '../../../components/notifications/notification-context';
import { PageHeader } from '../../../components/page-header';
import { useAreaAccess } from '../../../lib/permissions';
import { useFailureToast } from '../../../lib/use-failure-toast';
import { usePurgeTrashFile, useRestoreTrashFile, useTrash } from '../api/trash';
import { DeletedFilesTable, RestoreButton } from '../components/deleted-files-table';
import { useRestoreDialog } from '../components/restore-dialog';

/** Files in the trash: restore (to a chosen category when theirs is gone) or delete for good. */
export function TrashPage() {
  const notify = useNotify();
  const { canWrite } = useAreaAccess('fileControl');
  const [page, setPage] = useState(1);
  const [purging, setPurging] = useState<TTrashFile | null>(null);
  const list = useTrash(page);
  useFailureToast(list.error, list.errorUpdatedAt, 'Failed to load trash');
  const restore = useRestoreDialog({
    restore: useRestoreTrashFile(),
    failure: 'Failed to restore trash file!',
  });
  const purge = usePurgeTrashFile();
  return (
    <>
      <PageHeader title="Trash">Deleted files, until they are restored or deleted for good.</PageHeader>
      <DeletedFilesTable
        label="Trash"
        data={list.data}
        emptyText="The trash is empty"
        showDeletedBy
        rowActions={
          canWrite
            ? (f) => (
                <>
                  <RestoreButton file={f} onClick={() => restore.open(f)} />
                  <Button
                    variant="danger"
                    small
                    aria-label={`Delete ${f.name} for good`}
                    onClick={() => setPurging(f)}
                  >
                    Delete for good
                  </Button>
                </>
              )
            : undefined
        }
        onPage={setPage}
      />
      {restore.dialog}
      {purging ? (
        <ConfirmDialog
          title="Delete for good?"
          confirmLabel="Delete for good"
          tone="danger"
          pending={purge.isPending}
          onCancel={() => setPurging(null)}
          onConfirm={() =>
            purge.mutate(purging.id, {
              onSuccess: () => {
                notify.success('File deleted for good');
                setPurging(null);
              },
              onError: (error) => notify.notifyFailure('Failed to delete file', error),
            })
          }
        >
          {purging.name}, its versions, other files and comments are deleted. This cannot be undone.
        </ConfirmDialog>
      ) : null}
    </>
  );
}
