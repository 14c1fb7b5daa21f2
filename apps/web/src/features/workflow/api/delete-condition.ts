import { contract } from '@quire/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';
import { invalidateDesign } from '../lib/invalidate';

export const deleteCondition = async (id: number) =>
  (await callApi(contract.workflow.deleteCondition, { params: { id } })).data;

/** DELETE /api/del_condition/{id}. */
export function useDeleteCondition() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: deleteCondition, onSuccess: () => invalidateDesign(queryClient) });
}
