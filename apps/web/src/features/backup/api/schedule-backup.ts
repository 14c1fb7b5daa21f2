import { contract, type TScheduleBackupBody } from '@quire/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';
import { invalidateBackups } from './invalidate';

export const scheduleBackup = async (body: TScheduleBackupBody) =>
  (await callApi(contract.backup.schedule, { body })).data;

/** POST /api/schedule_backup. */
export function useScheduleBackup() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: scheduleBackup, onSuccess: () => invalidateBackups(queryClient) });
}
