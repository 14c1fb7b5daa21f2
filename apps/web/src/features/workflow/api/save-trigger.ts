import type { Body, contract } from '@quire/contract';
import { calls } from '@quire/contract/calls';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';
import { invalidateDesign } from '../lib/invalidate';

export type SaveTriggerInput = Body<typeof contract.workflow.updateTrigger>;

export const saveTrigger = async (body: SaveTriggerInput) =>
  (await callApi(calls.workflow.updateTrigger, { body })).data;

/** POST /api/update_trigger: what moves a file without a person. */
export function useSaveTrigger() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: saveTrigger, onSuccess: () => invalidateDesign(queryClient) });
}
