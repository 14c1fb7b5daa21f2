import { calls } from '@quire/contract/calls';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';
import { invalidateDesign } from '../lib/invalidate';

export const deleteAssignee = async (id: number) =>
  (await callApi(calls.workflow.deleteAssignee, { params: { id } })).data;

/** DELETE /api/del_assignee/{id}. */
export function useDeleteAssignee() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: deleteAssignee, onSuccess: () => invalidateDesign(queryClient) });
}
