import { contract } from '@quire/contract';
import { useQuery } from '@tanstack/react-query';
import { apiQueryOptions } from '../../../lib/api-client';

export const loggedInUsersQuery = () => apiQueryOptions(contract.user.loggedInUsers);

/** GET /api/logged-in-user: live sessions, refreshed every minute while the page is open. */
export function useLoggedInUsers() {
  return useQuery({ ...loggedInUsersQuery(), refetchInterval: 60_000 });
}
