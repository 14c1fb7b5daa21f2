import { queryOptions, useQuery } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';
import { emailIsValidEntry, REGISTRATION_PROBE_EMAIL } from './registration-open';

/** POST /account/email/is-valid: well-formed, and not used by an account yet. */
export const emailIsValidQuery = (email: string) =>
  queryOptions({
    queryKey: [emailIsValidEntry.path, email] as const,
    queryFn: async ({ signal }) => (await callApi(emailIsValidEntry, { body: { email }, signal })).data,
    staleTime: 60_000,
    retry: false,
  });

/**
 * Asks about the probe address once the register page opens: a 403 means self-registration
 * is turned off (its message says so).
 */
export function useRegistrationProbe() {
  return useQuery({ ...emailIsValidQuery(REGISTRATION_PROBE_EMAIL), staleTime: 0, gcTime: 0 });
}
