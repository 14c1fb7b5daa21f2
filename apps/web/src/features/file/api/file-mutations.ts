import type { Contract, TFieldValueInput, TFileDetail, TFileGrant } from '@quire/contract';
import { calls } from '@quire/contract/calls';
import { type QueryClient, useMutation, useQueryClient } from '@tanstack/react-query';
import { callApi, queryKeyFor } from '../../../lib/api-client';
import { invalidateFiles } from '../../../lib/invalidate-files';
import { type UploadProgress, uploadForm } from '../../../lib/upload';

// The files area's changes: each invalidates the lists and the file it touched.

function useFileMutation<A, R = unknown>(fn: (args: A) => Promise<R>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: (result) => {
      showFile(client, result);
      return invalidateFiles(client);
    },
  });
}

/**
 * A change that answers the file (rename, values, move, check-in) or its lock and check-out
 * (lock, check-out): the page shows it at once, before the lists are fetched again.
 */
function showFile(client: QueryClient, result: unknown) {
  const data = (result as { data?: unknown } | null)?.data as
    | (Partial<TFileDetail> & { file_id?: number })
    | undefined;
  if (data && typeof data.id === 'number' && Array.isArray(data.versions))
    client.setQueryData(queryKeyFor(calls.file.fileView, { params: { id: data.id } }), data as TFileDetail);
  else if (data && typeof data.file_id === 'number' && 'locked_by' in data && 'checked_out_by' in data) {
    const { locked_by = null, checked_out_by = null } = data;
    client.setQueryData(
      queryKeyFor(calls.file.fileView, { params: { id: data.file_id } }),
      (file: TFileDetail | undefined) => (file ? { ...file, locked_by, checked_out_by } : file),
    );
  }
}

export const useSubmitMetas = () =>
  useFileMutation((b: { file_id: number; values: TFieldValueInput[] }) =>
    callApi(calls.file.submitMetas, { body: b }),
  );
export const useCancelIndex = () =>
  useFileMutation((file_id: number) => callApi(calls.file.cancelIndexFile, { body: { file_id } }));
export const useRename = () =>
  useFileMutation((b: { file_id: number; name: string }) => callApi(calls.file.editFileName, { body: b }));
export const useMove = () =>
  useFileMutation((b: { file_id: number; folder_id: number }) =>
    callApi(calls.file.updateFileCategory, { body: b }),
  );
export const useLock = () =>
  useFileMutation((b: { file_id: number; status: string }) =>
    callApi(calls.fileActions.lockFile, { body: b }),
  );
export const useCheckOut = () =>
  useFileMutation((file_id: number) => callApi(calls.fileActions.checkOut, { body: { file_id } }));
export const useCheckIn = () =>
  useFileMutation(({ file_id, comment, file }: { file_id: number; comment: string; file: File | null }) => {
    const form = new FormData();
    form.append('file_id', String(file_id));
    form.append('comment', comment);
    if (file) form.append('file', file);
    return uploadForm(calls.fileActions.checkIn, form);
  });
export const useRollback = () =>
  useFileMutation((b: { file_id: number; version_id: number }) =>
    callApi(calls.fileActions.rollbackVersion, { body: b }),
  );
type Toggle = 'follow' | 'unfollow' | 'favouriteFile' | 'unfavouriteFile';
export const useToggle = (what: Toggle) =>
  useFileMutation((file_id: number) =>
    callApi<Contract['fileActions'][Toggle]>(calls.fileActions[what], { body: { file_id } }),
  );
export const useComment = () =>
  useFileMutation((b: { file_id: number; comment: string }) =>
    callApi(calls.fileActions.fileComment, { body: b }),
  );
/**
 * Moving files to the trash: the lists refresh without being waited for, so the caller's
 * own callbacks (the file page leaving for the category) run while the page is still
 * mounted, before a refetch of the deleted file could replace it with "File not found".
 */
export const useTrash = () => {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (file_ids: number[]) => callApi(calls.fileActions.delete, { body: { file_ids } }),
    onSuccess: () => {
      void invalidateFiles(client);
    },
  });
};
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
    }) => callApi(calls.file.shareFile, { params: { id }, body }),
  );
export const useDeleteOtherFiles = () =>
  useFileMutation((ids: number[]) => callApi(calls.fileActions.deleteOtherFiles, { body: { ids } }));
export const useEditValues = () =>
  useFileMutation((b: { file_id: number; values: TFieldValueInput[] }) =>
    callApi(calls.file.editFileUserField, { body: b }),
  );
export const useSetFilePermissions = () =>
  useFileMutation((b: { file_id: number; inherit_category: boolean; grants: TFileGrant[] }) =>
    callApi(calls.file.updateFilePermission, { body: b }),
  );

/** One other file attached to `fileId` (field `file_id` first), with progress and cancel. */
export function uploadOtherFile(
  fileId: number,
  file: File,
  options: { signal: AbortSignal; onProgress: (progress: UploadProgress) => void },
) {
  const form = new FormData();
  form.append('file_id', String(fileId));
  form.append('file', file);
  return uploadForm(calls.file.otherFilesUpload, form, options);
}

/** After other files were attached: the page and the lists show them. */
export function useFilesChanged() {
  const client = useQueryClient();
  return () => invalidateFiles(client);
}

/**
 * A new version in one action. The API adds a version only through a check-in of a file the
 * caller checked out, so this checks the file out first when it is not (then checks it in
 * with the new content and the comment); a check-out the caller already holds is used as is.
 */
export const useNewVersion = () =>
  useFileMutation(
    async ({
      file_id,
      comment,
      file,
      checkOutFirst,
    }: {
      file_id: number;
      comment: string;
      file: File;
      checkOutFirst: boolean;
    }) => {
      if (checkOutFirst) await callApi(calls.fileActions.checkOut, { body: { file_id } });
      const form = new FormData();
      form.append('file_id', String(file_id));
      form.append('comment', comment);
      form.append('file', file);
      try {
        return await uploadForm(calls.fileActions.checkIn, form);
      } catch (error) {
        // The check-out this action took is released, so a failed upload leaves the file as it was.
        if (checkOutFirst) {
          const release = new FormData();
          release.append('file_id', String(file_id));
          release.append('comment', '');
          await uploadForm(calls.fileActions.checkIn, release).catch(() => undefined);
        }
        throw error;
      }
    },
  );
