import type { Body, contract } from '@quire/contract';
import { calls } from '@quire/contract/calls';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';
import { invalidateDesign } from '../lib/invalidate';

export type SaveAssigneesInput = Body<typeof contract.workflow.updateAssignee>;

export const saveAssignees = async (body: SaveAssigneesInput) =>
  (await callApi(calls.workflow.updateAssignee, { body })).data;

/** POST /api/update_assignee: the step's users and groups. */
export function useSaveAssignees() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: saveAssignees, onSuccess: () => invalidateDesign(queryClient) });
}
