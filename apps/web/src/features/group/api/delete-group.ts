import { calls } from '@quire/contract/calls';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';
import { invalidateGroups } from '../lib/invalidate-groups';

export const deleteGroup = async (id: number) =>
  (await callApi(calls.group.deleteGroup, { params: { id } })).data;

/** POST /api/group/delete/{id}: the group and its memberships go, the users stay. */
export function useDeleteGroup() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: deleteGroup, onSuccess: () => invalidateGroups(queryClient) });
}
