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

/** A neutral address that no account uses: asking about it tells whether registration is open. */
export const REGISTRATION_PROBE_EMAIL = 'probe@example.invalid';

/**
 * Asks about the probe address once the register page opens: a 403 means self-registration
 * is turned off (its message says so).
 */
export function useRegistrationProbe() {
  return useQuery({ ...emailIsValidQuery(REGISTRATION_PROBE_EMAIL), staleTime: 0, gcTime: 0 });
}
