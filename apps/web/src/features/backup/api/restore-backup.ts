import { calls } from '@quire/contract/calls';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';
import { invalidateBackups } from './invalidate';

export interface RestoreInput {
  id: number;
  password: string;
  code?: string;
  confirmation: string;
}

export const restoreBackup = async ({ id, ...body }: RestoreInput) =>
  (
    await callApi(calls.backup.restore, {
      params: { id },
      body: { ...body, code: body.code || undefined },
    })
  ).data;

/** POST /api/restore_backup/{id}: starts the restore job. */
export function useRestoreBackup() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: restoreBackup, onSuccess: () => invalidateBackups(queryClient) });
}
