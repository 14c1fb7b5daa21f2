import { calls } from '@quire/contract/calls';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';
import { invalidateBackups } from './invalidate';

export const deleteBackup = async (id: number) =>
  (await callApi(calls.backup.delete, { params: { id } })).data;

/** POST /api/delete_backup/{id}: the run and its archive. */
export function useDeleteBackup() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: deleteBackup, onSuccess: () => invalidateBackups(queryClient) });
}
