import { calls } from '@quire/contract/calls';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';
import { invalidateBackups } from './invalidate';

export const deleteBackupFile = async (id: number) =>
  (await callApi(calls.backup.deleteFile, { params: { id } })).data;

/** POST /api/delete_backup_file/{id}: the archive only; the run stays listed. */
export function useDeleteBackupFile() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: deleteBackupFile, onSuccess: () => invalidateBackups(queryClient) });
}
