import { calls } from '@quire/contract/calls';
import { useQuery } from '@tanstack/react-query';
import { apiQueryOptions } from '../../../lib/api-client';

export const loggedInUsersQuery = () => apiQueryOptions(calls.user.loggedInUsers);

/** GET /api/logged-in-user: live sessions, refreshed every minute while the page is open. */
export function useLoggedInUsers() {
  return useQuery({ ...loggedInUsersQuery(), refetchInterval: 60_000 });
}
