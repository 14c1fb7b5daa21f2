import { calls } from '@quire/contract/calls';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';
import { invalidateBackups } from './invalidate';

export const createBackup = async () => (await callApi(calls.backup.create)).data;

/** POST /api/create_backup: queues a backup of the whole system. */
export function useCreateBackup() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: createBackup, onSuccess: () => invalidateBackups(queryClient) });
}
