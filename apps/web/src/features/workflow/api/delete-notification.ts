import { calls } from '@quire/contract/calls';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';
import { invalidateDesign } from '../lib/invalidate';

export const deleteNotification = async (id: number) =>
  (await callApi(calls.workflow.deleteNotification, { params: { id } })).data;

/** DELETE /api/del_notification/{id}. */
export function useDeleteNotification() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: deleteNotification, onSuccess: () => invalidateDesign(queryClient) });
}
