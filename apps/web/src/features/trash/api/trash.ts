import { calls } from '@quire/contract/calls';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiQueryOptions, callApi } from '../../../lib/api-client';
import { invalidateFiles } from '../../../lib/invalidate-files';

// The trash (File Control): every deleted file, restored or deleted for good. A restored or
// purged file leaves the trash and (restored) joins its category's lists: both refresh, without
// holding up the answer.

export function useTrash(page: number) {
  return useQuery(apiQueryOptions(calls.trash.trash, { query: { page } }));
}

/** Restores one, into `folder_id` when its own category is gone. */
export function useRestoreTrashFile() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, folder_id }: { id: number; folder_id?: number }) =>
      callApi(calls.trash.restoreTrashFile, { params: { id }, body: folder_id ? { folder_id } : {} }),
    onSuccess: () => {
      void invalidateFiles(client);
    },
  });
}

/** Deletes one for good. */
export function usePurgeTrashFile() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => callApi(calls.trash.deleteTrashFile, { params: { id } }),
    onSuccess: () => {
      void invalidateFiles(client);
    },
  });
}
