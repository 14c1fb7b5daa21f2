import type { Body, contract } from '@quire/contract';
import { calls } from '@quire/contract/calls';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';
import { invalidateGroups } from '../lib/invalidate-groups';

export type CreateGroupInput = Body<typeof contract.group.createGroup>;

export const createGroup = async (body: CreateGroupInput) =>
  (await callApi(calls.group.createGroup, { body })).data;

/** POST /api/create_group. */
export function useCreateGroup() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: createGroup, onSuccess: () => invalidateGroups(queryClient) });
}
