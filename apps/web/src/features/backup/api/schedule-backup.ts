import type { TScheduleBackupBody } from '@quire/contract';
import { calls } from '@quire/contract/calls';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';
import { invalidateBackups } from './invalidate';

export const scheduleBackup = async (body: TScheduleBackupBody) =>
  (await callApi(calls.backup.schedule, { body })).data;

/** POST /api/schedule_backup. */
export function useScheduleBackup() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: scheduleBackup, onSuccess: () => invalidateBackups(queryClient) });
}
