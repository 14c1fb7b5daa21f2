import { calls } from '@quire/contract/calls';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';
import { invalidateDesign } from '../lib/invalidate';

export const deleteStep = async (id: number) =>
  (await callApi(calls.workflow.deleteStep, { params: { id } })).data;

/** DELETE /api/workflow/del_step/{id}. */
export function useDeleteStep() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: deleteStep, onSuccess: () => invalidateDesign(queryClient) });
}
