import type { Body, contract } from '@quire/contract';
import { calls } from '@quire/contract/calls';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';
import { invalidateGroups } from '../lib/invalidate-groups';

export type EditGroupInput = Body<typeof contract.group.editGroup>;

export const editGroup = async ({ id, body }: { id: number; body: EditGroupInput }) =>
  (await callApi(calls.group.editGroup, { params: { id }, body })).data;

/** POST /api/edit_group/{id}: `user_ids` replaces the members. */
export function useEditGroup() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: editGroup, onSuccess: () => invalidateGroups(queryClient) });
}
