import type { TCategoryInfo } from '@quire/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { useNotify } from '../../../components/notifications/notification-context';
import { ApiError } from '../../../lib/api-error';
import { plural } from '../../../lib/format';
import { useDeleteFolder } from '../api/delete-folder';
import { folderInfoQuery } from '../api/get-folder-info';

/**
 * Deleting a category says what goes with it: its sub-categories, and how many files move to
 * the trash. The number confirmed is sent with the call; if files came or went meanwhile, the
 * API refuses (409) and the dialog shows the new number to confirm.
 */
export function DeleteCategoryDialog({
  info,
  onClose,
  onDeleted,
}: {
  info: TCategoryInfo;
  onClose: () => void;
  onDeleted: () => void;
}) {
  const notify = useNotify();
  const queryClient = useQueryClient();
  const remove = useDeleteFolder();
  const [files, setFiles] = useState(info.subtree_file_count ?? 0);
  const [changed, setChanged] = useState<string | null>(null);
  const subs = info.subtree_category_count ?? 0;

  const confirm = () =>
    remove.mutate(
      { folder_id: info.id, confirm_file_count: files },
      {
        onSuccess: (data) => {
          notify.success(
            'Category deleted',
            data.trashed_files > 0
              ? `${info.name} was deleted; ${plural(data.trashed_files, 'file was', 'files were')} moved to the trash.`
              : `${info.name} was deleted.`,
          );
          onDeleted();
        },
        onError: async (error) => {
          if (error instanceof ApiError && error.code === 'category.delete_unconfirmed') {
            // Files came or went since the dialog opened: show the number as it is now.
            const now = await queryClient.fetchQuery({ ...folderInfoQuery(info.id), staleTime: 0 });
            setFiles(now.subtree_file_count ?? 0);
            setChanged('The number of files changed since you opened this. Check it and confirm again.');
            return;
          }
          notify.notifyFailure('Failed to delete category!', error);
        },
      },
    );

  return (
    <ConfirmDialog
      title={`Delete ${info.name}?`}
      confirmLabel={files > 0 ? `Delete and trash ${plural(files, 'file', 'files')}` : 'Delete category'}
      pendingLabel="Deleting…"
      tone="danger"
      pending={remove.isPending}
      onConfirm={confirm}
      onCancel={onClose}
    >
      {changed ? (
        <p className="alert alert--warning" role="alert">
          {changed}
        </p>
      ) : null}
      <p>
        {subs > 0
          ? `${info.name} and its ${plural(subs, 'sub-category', 'sub-categories')} will be deleted.`
          : `${info.name} will be deleted.`}
      </p>
      <p>
        {files > 0 ? (
          <strong>{`${plural(files, 'file', 'files')} will be moved to the trash, where they can be restored.`}</strong>
        ) : (
          'It holds no files.'
        )}
      </p>
    </ConfirmDialog>
  );
}
