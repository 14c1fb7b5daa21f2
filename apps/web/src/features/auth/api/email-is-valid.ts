import { contract } from '@quire/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';

/** POST /account/email/is-valid: well-formed, and not used by an account yet. */
export const emailIsValidQuery = (email: string) =>
  queryOptions({
    queryKey: [contract.auth.emailIsValid.path, email] as const,
    queryFn: async ({ signal }) =>
      (await callApi(contract.auth.emailIsValid, { body: { email }, signal })).data,
    staleTime: 60_000,
    retry: false,
  });

/** Checks `email` once it is non-empty (the caller debounces it). */
export function useEmailIsValid(email: string) {
  return useQuery({ ...emailIsValidQuery(email), enabled: email !== '' });
}
