import type { Body, contract } from '@quire/contract';
import { calls } from '@quire/contract/calls';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';
import { invalidateRuns } from '../lib/invalidate';

export type InitiateWorkflowInput = Body<typeof contract.workflow.initiateWorkflow>;

export const initiateWorkflow = async (body: InitiateWorkflowInput) =>
  (await callApi(calls.workflow.initiateWorkflow, { body })).data;

/** POST /api/initiate-workflow: start a workflow on files. */
export function useInitiateWorkflow() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: initiateWorkflow, onSuccess: () => invalidateRuns(queryClient) });
}
