import { calls } from '@quire/contract/calls';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';
import { invalidateDesign } from '../lib/invalidate';

export const deleteCondition = async (id: number) =>
  (await callApi(calls.workflow.deleteCondition, { params: { id } })).data;

/** DELETE /api/del_condition/{id}. */
export function useDeleteCondition() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: deleteCondition, onSuccess: () => invalidateDesign(queryClient) });
}
