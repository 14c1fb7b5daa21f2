import { calls } from '@quire/contract/calls';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';
import { invalidateUsers } from '../lib/invalidate-users';

export const clearTwoFactor = async (userId: number) =>
  (await callApi(calls.auth.clear2fa, { body: { user_id: userId } })).data;

/** POST /api/users/clear2fa with user_id: an admin resets that user's two-factor set-up. */
export function useClearTwoFactor() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: clearTwoFactor, onSuccess: () => invalidateUsers(queryClient) });
}
