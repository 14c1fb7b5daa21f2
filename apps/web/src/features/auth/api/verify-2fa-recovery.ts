import { contract } from '@quire/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callApi, queryKeyFor } from '../../../lib/api-client';

/** POST /api/users/verify2fa-recovery: completes the waiting sign-in with a recovery code (spent). */
export function useVerify2faRecovery() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: [contract.auth.verify2faRecovery.path],
    mutationFn: async (recoveryCode: string) =>
      (await callApi(contract.auth.verify2faRecovery, { body: { recovery_code: recoveryCode } })).data,
    onSuccess: async () => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeyFor(contract.auth.is2faEnabled) }),
        queryClient.invalidateQueries({ queryKey: queryKeyFor(contract.auth.recoveryCodesLeft) }),
        queryClient.invalidateQueries({ queryKey: queryKeyFor(contract.user.current) }),
      ]);
    },
  });
}
