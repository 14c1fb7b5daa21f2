import type { TTrashFile } from '@quire/contract';
import { useState } from 'react';
import { useNotify } from '../../../components/notifications/notification-context';
import { PageHeader } from '../../../components/page-header';
import { pagingOf } from '../../../components/pagination';
import { SortableTable } from '../../../components/sortable-table';
import { formatShortDate } from '../../../lib/format';
import { useFailureToast } from '../../../lib/use-failure-toast';
import { useMyDeletedFiles, useRestoreMyDeletedFile } from '../api/my-deleted-files';
import { RestoreDialog } from '../components/restore-dialog';

/** The files the person deleted themselves, each restored while they may still delete it. */
export function MyDeletedFilesPage() {
  const notify = useNotify();
  const [page, setPage] = useState(1);
  const [restoring, setRestoring] = useState<TTrashFile | null>(null);
  const list = useMyDeletedFiles(page);
  useFailureToast(list.error, list.errorUpdatedAt, 'Failed to load deleted files');
  const restore = useRestoreMyDeletedFile();
  const data = list.data;
  return (
    <>
      <PageHeader title="My deleted files">
        The files you deleted. Restore one to put it back; a File Control admin sees everyone's.
      </PageHeader>
      <SortableTable<TTrashFile>
        label="My deleted files"
        rows={data?.items ?? []}
        rowKey={(f) => f.id}
        busy={list.isFetching}
        emptyText="You have no deleted files"
        columns={[
          { id: 'name', label: 'Name', isRowHeader: true, cell: (f) => f.name },
          {
            id: 'folder',
            label: 'Category',
            cell: (f) => `${f.folder_name ?? ''}${f.folder_live ? '' : ' (deleted)'}`,
          },
          { id: 'when', label: 'Deleted', cell: (f) => formatShortDate(f.deleted_at) },
        ]}
        rowActions={(f) => (
          <button
            type="button"
            className="button button--small"
            aria-label={`Restore ${f.name}`}
            onClick={() => setRestoring(f)}
          >
            Restore
          </button>
        )}
        pagination={pagingOf(data, 'files', setPage)}
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
