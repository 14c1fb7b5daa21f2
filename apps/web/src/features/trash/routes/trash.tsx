import { contract, type TTrashFile } from '@quire/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { useNotify } from '../../../components/notifications/notification-context';
import { PageHeader } from '../../../components/page-header';
import { pagingOf } from '../../../components/pagination';
import { SortableTable } from '../../../components/sortable-table';
import { apiQueryOptions, callApi } from '../../../lib/api-client';
import { formatShortDate } from '../../../lib/format';
import { invalidateFiles } from '../../../lib/invalidate-files';
import { useAreaAccess } from '../../../lib/permissions';
import { useFailureToast } from '../../../lib/use-failure-toast';
import { RestoreDialog } from '../components/restore-dialog';

/** Files in the trash: restore (to a chosen category when theirs is gone) or delete for good. */
export function TrashPage() {
  const notify = useNotify();
  const client = useQueryClient();
  const { canWrite } = useAreaAccess('fileControl');
  const [page, setPage] = useState(1);
  const [purging, setPurging] = useState<TTrashFile | null>(null);
  const [restoring, setRestoring] = useState<TTrashFile | null>(null);
  const list = useQuery(apiQueryOptions(contract.trash.trash, { query: { page } }));
  useFailureToast(list.error, list.errorUpdatedAt, 'Failed to load trash');
  // The restored or purged file leaves the trash and (restored) joins its category's list.
  const refresh = () => invalidateFiles(client);
  const restore = useMutation({
    mutationFn: ({ id, folder_id }: { id: number; folder_id?: number }) =>
      callApi(contract.trash.restoreTrashFile, { params: { id }, body: folder_id ? { folder_id } : {} }),
    onSuccess: () => {
      notify.success('File restored');
      setRestoring(null);
      void refresh();
    },
    onError: (error) => notify.notifyFailure('Failed to restore trash file!', error),
  });
  const purge = useMutation({
    mutationFn: (id: number) => callApi(contract.trash.deleteTrashFile, { params: { id } }),
    onSuccess: () => {
      notify.success('File deleted for good');
      setPurging(null);
      void refresh();
    },
    onError: (error) => notify.notifyFailure('Failed to delete file', error),
  });
  const data = list.data;
  return (
    <>
      <PageHeader title="Trash">Deleted files, until they are restored or deleted for good.</PageHeader>
      <SortableTable<TTrashFile>
        label="Trash"
        rows={data?.items ?? []}
        rowKey={(f) => f.id}
        emptyText="The trash is empty"
        columns={[
          { id: 'name', label: 'Name', isRowHeader: true, cell: (f) => f.name },
          {
            id: 'folder',
            label: 'Category',
            cell: (f) => `${f.folder_name ?? ''}${f.folder_live ? '' : ' (deleted)'}`,
          },
          { id: 'by', label: 'Deleted by', cell: (f) => f.deleted_by?.name ?? '' },
          { id: 'when', label: 'Deleted', cell: (f) => formatShortDate(f.deleted_at) },
        ]}
        rowActions={
          canWrite
            ? (f) => (
                <>
                  <button
                    type="button"
                    className="button button--small"
                    aria-label={`Restore ${f.name}`}
                    onClick={() => setRestoring(f)}
                  >
                    Restore
                  </button>
                  <button
                    type="button"
                    className="button button--danger button--small"
                    aria-label={`Delete ${f.name} for good`}
                    onClick={() => setPurging(f)}
                  >
                    Delete for good
                  </button>
                </>
              )
            : undefined
        }
        pagination={pagingOf(data, 'files', setPage)}
      />
      {restoring ? (
        <RestoreDialog
          file={restoring}
          pending={restore.isPending}
          onCancel={() => setRestoring(null)}
          onRestore={(folder_id) => restore.mutate({ id: restoring.id, folder_id })}
        />
      ) : null}
      {purging ? (
        <ConfirmDialog
          title="Delete for good?"
          confirmLabel="Delete for good"
          tone="danger"
          pending={purge.isPending}
          onCancel={() => setPurging(null)}
          onConfirm={() => purge.mutate(purging.id)}
        >
          {purging.name}, its versions, other files and comments are deleted. This cannot be undone.
        </ConfirmDialog>
      ) : null}
    </>
  );
}
