import type { Body, contract } from '@quire/contract';
import { calls } from '@quire/contract/calls';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';
import { invalidateDesign } from '../lib/invalidate';

export type SaveWorkflowInput = Body<typeof contract.workflow.createAndUpdateWorkflow>;

export const saveWorkflow = async (body: SaveWorkflowInput) =>
  (await callApi(calls.workflow.createAndUpdateWorkflow, { body })).data;

/** POST /api/create_and_update_workflow: create, or update the one `id` names. */
export function useSaveWorkflow() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: saveWorkflow, onSuccess: () => invalidateDesign(queryClient) });
}
