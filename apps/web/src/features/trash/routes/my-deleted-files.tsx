import type { TTrashFile } from '@quire/contract';
import { useState } from 'react';
import { useNotify } from '../../../components/notifications/notification-context';
import { PageHeader } from '../../../components/page-header';
import { useFailureToast } from '../../../lib/use-failure-toast';
import { useMyDeletedFiles, useRestoreMyDeletedFile } from '../api/my-deleted-files';
import { DeletedFilesTable, RestoreButton } from '../components/deleted-files-table';
import { RestoreDialog } from '../components/restore-dialog';

/** The files the person deleted themselves, each restored while they may still delete it. */
export function MyDeletedFilesPage() {
  const notify = useNotify();
  const [page, setPage] = useState(1);
  const [restoring, setRestoring] = useState<TTrashFile | null>(null);
  const list = useMyDeletedFiles(page);
  useFailureToast(list.error, list.errorUpdatedAt, 'Failed to load deleted files');
  const restore = useRestoreMyDeletedFile();
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
        rowActions={(f) => <RestoreButton file={f} onClick={() => setRestoring(f)} />}
        onPage={setPage}
      />
      {restoring ? (
        <RestoreDialog
          file={restoring}
          pending={restore.isPending}
          onCancel={() => setRestoring(null)}
          onRestore={(folder_id) =>
            restore.mutate(
              { id: restoring.id, folder_id },
              {
                onSuccess: ({ data: file }) => {
                  notify.success(
                    'File restored',
                    `${file.name} is back in ${file.folder_name ?? 'its category'}.`,
                  );
                  setRestoring(null);
                },
                onError: (error) => notify.notifyFailure('Failed to restore file!', error),
              },
            )
          }
        />
      ) : null}
    </>
  );
}
