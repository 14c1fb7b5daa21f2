import { contract } from '@quire/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';
import { invalidateDesign } from '../lib/invalidate';

export const deleteAssignee = async (id: number) =>
  (await callApi(contract.workflow.deleteAssignee, { params: { id } })).data;

/** DELETE /api/del_assignee/{id}. */
export function useDeleteAssignee() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: deleteAssignee, onSuccess: () => invalidateDesign(queryClient) });
}
