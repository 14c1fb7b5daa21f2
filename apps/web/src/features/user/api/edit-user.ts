import type { Body, contract } from '@quire/contract';
import { calls } from '@quire/contract/calls';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';
import { invalidateUsers } from '../lib/invalidate-users';

export type EditUserInput = Body<typeof contract.user.editUser>;

export const editUser = async ({ id, body }: { id: number; body: EditUserInput }) =>
  (await callApi(calls.user.editUser, { params: { id }, body })).data;

/** PUT /api/editUser/{id}. */
export function useEditUser() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: editUser, onSuccess: () => invalidateUsers(queryClient) });
}
