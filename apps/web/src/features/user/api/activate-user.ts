import { calls } from '@quire/contract/calls';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';
import { invalidateUsers } from '../lib/invalidate-users';

export const activateUser = async (id: number) =>
  (await callApi(calls.user.activateUser, { body: { id } })).data;

/** PUT /api/activate_user. */
export function useActivateUser() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: activateUser, onSuccess: () => invalidateUsers(queryClient) });
}
