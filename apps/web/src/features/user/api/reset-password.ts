import { calls } from '@quire/contract/calls';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';

export const resetPassword = async (body: { user_id: number; password: string }) =>
  (await callApi(calls.user.resetPassword, { body })).data;

/** POST /api/reset-password: that user is signed out everywhere, so the live sessions change. */
export function useResetPassword() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: resetPassword,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: [calls.user.loggedInUsers.path] }),
  });
}
