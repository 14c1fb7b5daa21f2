import type { Body, contract } from '@quire/contract';
import { calls } from '@quire/contract/calls';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';
import { invalidateDesign } from '../lib/invalidate';

export type EditStepMetadataInput = Body<typeof contract.workflow.editStepMetadata>;

export const editStepMetadata = async (body: EditStepMetadataInput) =>
  (await callApi(calls.workflow.editStepMetadata, { body })).data;

/** POST /api/workflow/step/edit_metadata: the step's form. */
export function useEditStepMetadata() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: editStepMetadata, onSuccess: () => invalidateDesign(queryClient) });
}
