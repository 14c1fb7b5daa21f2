import { calls } from '@quire/contract/calls';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';
import { loggedInUsersQuery } from './get-logged-in-users';

export const endSession = async (sessionId: string) =>
  (await callApi(calls.user.endSession, { params: { id: sessionId } })).data;

/** POST /api/logged-in-user/{id}/end: the session's token stops working at once. */
export function useEndSession() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: endSession,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: loggedInUsersQuery().queryKey }),
  });
}
