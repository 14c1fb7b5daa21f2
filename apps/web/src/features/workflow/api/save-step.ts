import type { Body, contract } from '@quire/contract';
import { calls } from '@quire/contract/calls';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';
import { invalidateDesign } from '../lib/invalidate';

export type SaveStepInput = Body<typeof contract.workflow.createUpdateWorkflowStep>;

export const saveStep = async (body: SaveStepInput) =>
  (await callApi(calls.workflow.createUpdateWorkflowStep, { body })).data;

/** POST /api/create_update_workflow_step: add or change a step; `position` moves it. */
export function useSaveStep() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: saveStep, onSuccess: () => invalidateDesign(queryClient) });
}
