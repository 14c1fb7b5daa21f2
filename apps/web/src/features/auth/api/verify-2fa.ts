import { calls } from '@quire/contract/calls';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callApi, queryKeyFor } from '../../../lib/api-client';

export const verify2fa = async (code: string) =>
  (await callApi(calls.auth.verify2fa, { body: { code } })).data;

/** POST /api/users/verify2fa: turns 2FA on (first code) and completes the session's sign-in. */
export function useVerify2fa() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: [calls.auth.verify2fa.path],
    mutationFn: verify2fa,
    onSuccess: async () => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeyFor(calls.auth.is2faEnabled) }),
        queryClient.invalidateQueries({ queryKey: queryKeyFor(calls.user.current) }),
      ]);
    },
  });
}
