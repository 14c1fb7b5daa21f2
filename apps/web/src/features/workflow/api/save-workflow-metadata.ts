import type { Body, contract } from '@quire/contract';
import { calls } from '@quire/contract/calls';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';
import { invalidateDesign } from '../lib/invalidate';

export type SaveWorkflowMetadataInput = Body<typeof contract.workflow.createUpdateMetadata>;

export const saveWorkflowMetadata = async (body: SaveWorkflowMetadataInput) =>
  (await callApi(calls.workflow.createUpdateMetadata, { body })).data;

/** POST /api/workflow/create_update_metadata: the fields a run carries. */
export function useSaveWorkflowMetadata() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: saveWorkflowMetadata, onSuccess: () => invalidateDesign(queryClient) });
}
