import { calls } from '@quire/contract/calls';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callApi, queryKeyFor } from '../../../lib/api-client';

/** POST /api/users/verify2fa-recovery: completes the waiting sign-in with a recovery code (spent). */
export function useVerify2faRecovery() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: [calls.auth.verify2faRecovery.path],
    mutationFn: async (recoveryCode: string) =>
      (await callApi(calls.auth.verify2faRecovery, { body: { recovery_code: recoveryCode } })).data,
    onSuccess: async () => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeyFor(calls.auth.is2faEnabled) }),
        queryClient.invalidateQueries({ queryKey: queryKeyFor(calls.auth.recoveryCodesLeft) }),
        queryClient.invalidateQueries({ queryKey: queryKeyFor(calls.user.current) }),
      ]);
    },
  });
}
