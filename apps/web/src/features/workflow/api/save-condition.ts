import type { Body, contract } from '@quire/contract';
import { calls } from '@quire/contract/calls';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';
import { invalidateDesign } from '../lib/invalidate';

export type SaveConditionInput = Body<typeof contract.workflow.updateCondition>;

export const saveCondition = async (body: SaveConditionInput) =>
  (await callApi(calls.workflow.updateCondition, { body })).data;

/** POST /api/update_condition: a PRE or POST condition. */
export function useSaveCondition() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: saveCondition, onSuccess: () => invalidateDesign(queryClient) });
}
