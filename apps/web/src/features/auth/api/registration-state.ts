import { useQuery } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';
import { registrationStateEntry } from './registration-open';

/**
 * GET /account/registration for the register page: whether the company lets people create
 * their own account. Answered 200 to anyone, so a closed registration costs no refused call
 * (and no `access.denied` in the audit trail). Asked afresh each time the page opens.
 */
export function useRegistrationState() {
  return useQuery({
    queryKey: [registrationStateEntry.path] as const,
    queryFn: async ({ signal }) => (await callApi(registrationStateEntry, { signal })).data,
    staleTime: 0,
    gcTime: 0,
    retry: false,
  });
}
