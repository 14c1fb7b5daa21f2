import type { Body, contract } from '@quire/contract';
import { calls } from '@quire/contract/calls';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';
import { invalidateDesign } from '../lib/invalidate';

export type SaveNotificationInput = Body<typeof contract.workflow.updateNotification>;

export const saveNotification = async (body: SaveNotificationInput) =>
  (await callApi(calls.workflow.updateNotification, { body })).data;

/** POST /api/update_notification: who hears of which event. */
export function useSaveNotification() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: saveNotification, onSuccess: () => invalidateDesign(queryClient) });
}
