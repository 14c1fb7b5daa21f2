import { calls } from '@quire/contract/calls';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';

/** POST /account/password/verify-token: whether a reset link is still good. */
export const verifyResetTokenQuery = (email: string, token: string) =>
  queryOptions({
    queryKey: [calls.auth.verifyResetToken.path, { email, token }] as const,
    queryFn: async ({ signal }) =>
      (await callApi(calls.auth.verifyResetToken, { body: { email, token }, signal })).data,
    retry: false,
    staleTime: Number.POSITIVE_INFINITY,
    refetchOnWindowFocus: false,
  });

export function useVerifyResetToken(email: string, token: string, enabled: boolean) {
  return useQuery({ ...verifyResetTokenQuery(email, token), enabled });
}
