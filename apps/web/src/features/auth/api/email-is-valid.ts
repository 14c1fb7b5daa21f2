import type { contract } from '@quire/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callApi, endpointRef } from '../../../lib/api-client';

// Also asked by the sign-in page (is registration open?): a reference, not the schemas.
const emailIsValidEntry = endpointRef<typeof contract.auth.emailIsValid>({
  method: 'POST',
  path: '/account/email/is-valid',
});

/** POST /account/email/is-valid: well-formed, and not used by an account yet. */
export const emailIsValidQuery = (email: string) =>
  queryOptions({
    queryKey: [emailIsValidEntry.path, email] as const,
    queryFn: async ({ signal }) => (await callApi(emailIsValidEntry, { body: { email }, signal })).data,
    staleTime: 60_000,
    retry: false,
  });

/** A neutral address that no account uses: asking about it tells whether registration is open. */
export const REGISTRATION_PROBE_EMAIL = 'probe@example.invalid';

/**
 * Asks about the probe address once the register page opens: a 403 means self-registration
 * is turned off (its message says so).
 */
export function useRegistrationProbe() {
  return useQuery({ ...emailIsValidQuery(REGISTRATION_PROBE_EMAIL), staleTime: 0, gcTime: 0 });
}
