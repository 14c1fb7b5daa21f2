import type { Body, contract } from '@quire/contract';
import { calls } from '@quire/contract/calls';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';
import { invalidateRuns } from '../lib/invalidate';

export type ManualTriggerInput = Body<typeof contract.fileActions.manualTriger>;

export const manualTrigger = async (body: ManualTriggerInput) =>
  (await callApi(calls.fileActions.manualTriger, { body })).data;

/** POST /api/manual-triger: approve, reject, move or cancel. */
export function useManualTrigger() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: manualTrigger, onSuccess: () => invalidateRuns(queryClient) });
}
