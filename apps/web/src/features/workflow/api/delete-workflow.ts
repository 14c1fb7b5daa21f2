import { calls } from '@quire/contract/calls';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';
import { invalidateDesign } from '../lib/invalidate';

export const deleteWorkflow = async (id: number) =>
  (await callApi(calls.workflow.deleteWorkflow, { params: { id } })).data;

/** DELETE /api/del_workflow/{id}: refused while files run through it. */
export function useDeleteWorkflow() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: deleteWorkflow, onSuccess: () => invalidateDesign(queryClient) });
}
