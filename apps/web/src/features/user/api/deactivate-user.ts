import { contract } from '@quire/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';
import { invalidateUsers } from '../lib/invalidate-users';

export const deactivateUser = async (id: number) =>
  (await callApi(contract.user.deactivateUser, { body: { id } })).data;

/** PUT /api/deactivate_user. */
export function useDeactivateUser() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: deactivateUser, onSuccess: () => invalidateUsers(queryClient) });
}
