import type { Body, contract } from '@quire/contract';
import { calls } from '@quire/contract/calls';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';
import { invalidateDesign } from '../lib/invalidate';

export type SetStepDefaultsInput = Body<typeof contract.workflow.setDefaultMetadata>;

export const setStepDefaults = async (body: SetStepDefaultsInput) =>
  (await callApi(calls.workflow.setDefaultMetadata, { body })).data;

/** POST /api/workflow/step/set_default_metadata: the form's default values. */
export function useSetStepDefaults() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: setStepDefaults, onSuccess: () => invalidateDesign(queryClient) });
}
