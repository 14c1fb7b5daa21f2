import { calls } from '@quire/contract/calls';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';
import { invalidateUsers } from '../lib/invalidate-users';

export const deleteUser = async (id: number) => (await callApi(calls.user.deleteUser, { body: { id } })).data;

/** PUT /api/delete_user. */
export function useDeleteUser() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: deleteUser, onSuccess: () => invalidateUsers(queryClient) });
}
