import { contract, type TFieldValueInput } from '@quire/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';
import { uploadForm } from '../../../lib/upload';
import { invalidateFiles } from './file-queries';

// The files area's changes: each invalidates the lists and the file it touched.

function useFileMutation<A>(fn: (args: A) => Promise<unknown>) {
  const client = useQueryClient();
  return useMutation({ mutationFn: fn, onSuccess: () => invalidateFiles(client) });
}

export const useSubmitMetas = () =>
  useFileMutation((b: { file_id: number; values: TFieldValueInput[] }) =>
    callApi(contract.file.submitMetas, { body: b }),
  );
export const useCancelIndex = () =>
  useFileMutation((file_id: number) => callApi(contract.file.cancelIndexFile, { body: { file_id } }));
export const useRename = () =>
  useFileMutation((b: { file_id: number; name: string }) => callApi(contract.file.editFileName, { body: b }));
export const useMove = () =>
  useFileMutation((b: { file_id: number; folder_id: number }) =>
    callApi(contract.file.updateFileCategory, { body: b }),
  );
export const useLock = () =>
  useFileMutation((b: { file_id: number; status: string }) =>
    callApi(contract.fileActions.lockFile, { body: b }),
  );
export const useCheckOut = () =>
  useFileMutation((file_id: number) => callApi(contract.fileActions.checkOut, { body: { file_id } }));
export const useCheckIn = () =>
  useFileMutation(({ file_id, comment, file }: { file_id: number; comment: string; file: File | null }) => {
    const form = new FormData();
    form.append('file_id', String(file_id));
    form.append('comment', comment);
    if (file) form.append('file', file);
    return uploadForm(contract.fileActions.checkIn, form);
  });
export const useRollback = () =>
  useFileMutation((b: { file_id: number; version_id: number }) =>
    callApi(contract.fileActions.rollbackVersion, { body: b }),
  );
export const useToggle = (what: 'follow' | 'unfollow' | 'favouriteFile' | 'unfavouriteFile') =>
  useFileMutation((file_id: number) => callApi(contract.fileActions[what], { body: { file_id } }));
export const useComment = () =>
  useFileMutation((b: { file_id: number; comment: string }) =>
    callApi(contract.fileActions.fileComment, { body: b }),
  );
export const useTrash = () =>
  useFileMutation((file_ids: number[]) => callApi(contract.fileActions.delete, { body: { file_ids } }));
export const useShare = () =>
  useFileMutation(
    ({
      id,
      ...body
    }: {
      id: number;
      public_link?: boolean;
      expires_at?: string | null;
      password?: string;
      revoke_link_ids?: string[];
    }) => callApi(contract.file.shareFile, { params: { id }, body }),
  );
export const useDeleteOtherFiles = () =>
  useFileMutation((ids: number[]) => callApi(contract.fileActions.deleteOtherFiles, { body: { ids } }));
