import type { Body, contract } from '@quire/contract';
import { calls } from '@quire/contract/calls';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiQueryOptions, callApi, queryKeyFor } from '../../../lib/api-client';

/** GET /api/users/2fa-recovery-codes: how many of your recovery codes are left. */
export const recoveryCodesLeftQuery = () => apiQueryOptions(calls.auth.recoveryCodesLeft);

export function useRecoveryCodesLeft(enabled: boolean) {
  return useQuery({ ...recoveryCodesLeftQuery(), enabled });
}

export type RegenerateRecoveryCodesInput = Body<typeof contract.auth.regenerateRecoveryCodes>;

/** POST /api/users/2fa-recovery-codes: ten new codes (answered once); the old ones stop working. */
export function useRegenerateRecoveryCodes() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: ['regenerate', calls.auth.regenerateRecoveryCodes.path],
    mutationFn: async (body: RegenerateRecoveryCodesInput) =>
      (await callApi(calls.auth.regenerateRecoveryCodes, { body })).data,
    onSuccess: (issued) =>
      queryClient.setQueryData(queryKeyFor(calls.auth.recoveryCodesLeft), { remaining: issued.remaining }),
  });
}
