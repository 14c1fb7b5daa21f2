import { calls } from '@quire/contract/calls';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiQueryOptions, callApi } from '../../../lib/api-client';

// "My deleted files": the files the person deleted, and their restore.

export function useMyDeletedFiles(page: number) {
  return useQuery(apiQueryOptions(calls.trash.myDeletedFiles, { query: { page } }));
}

/** Restores one; the lists the file comes back to are refreshed. */
export function useRestoreMyDeletedFile() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, folder_id }: { id: number; folder_id?: number }) =>
      callApi(calls.trash.restoreMyDeletedFile, { params: { id }, body: folder_id ? { folder_id } : {} }),
    onSuccess: () => client.invalidateQueries(),
  });
}
