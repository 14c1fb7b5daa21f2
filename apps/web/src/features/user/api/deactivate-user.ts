import { calls } from '@quire/contract/calls';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';
import { invalidateUsers } from '../lib/invalidate-users';

export const deactivateUser = async (id: number) =>
  (await callApi(calls.user.deactivateUser, { body: { id } })).data;

/** PUT /api/deactivate_user. */
export function useDeactivateUser() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: deactivateUser, onSuccess: () => invalidateUsers(queryClient) });
}
