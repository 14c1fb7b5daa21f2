import { calls } from '@quire/contract/calls';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';
import { invalidateDesign } from '../lib/invalidate';

export const deleteTrigger = async (id: number) =>
  (await callApi(calls.workflow.deleteTrigger, { params: { id } })).data;

/** DELETE /api/del_trigger/{id}. */
export function useDeleteTrigger() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: deleteTrigger, onSuccess: () => invalidateDesign(queryClient) });
}
