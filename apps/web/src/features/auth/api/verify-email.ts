import { calls } from '@quire/contract/calls';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';

/**
 * POST /account/verify-email (an extension of the spec): follows the verification link. A
 * query rather than a mutation, so that the page opening twice (StrictMode) spends the link once.
 */
export const verifyEmailQuery = (email: string, token: string) =>
  queryOptions({
    queryKey: [calls.auth.verifyEmail.path, { email, token }] as const,
    queryFn: async () => await callApi(calls.auth.verifyEmail, { body: { email, token } }),
    retry: false,
    staleTime: Number.POSITIVE_INFINITY,
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
  });

export function useVerifyEmail(email: string, token: string, enabled: boolean) {
  return useQuery({ ...verifyEmailQuery(email, token), enabled });
}
