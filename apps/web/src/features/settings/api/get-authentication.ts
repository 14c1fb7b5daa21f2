import { calls } from '@quire/contract/calls';
import { useQuery } from '@tanstack/react-query';
import { apiQueryOptions } from '../../../lib/api-client';

export const authenticationQuery = () => apiQueryOptions(calls.settings.authentication);

/** GET /api/settings/authentication: the directory connection, or null. */
export function useAuthentication() {
  return useQuery(authenticationQuery());
}
