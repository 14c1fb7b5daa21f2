import { calls } from '@quire/contract/calls';
import { useQuery } from '@tanstack/react-query';
import { apiQueryOptions } from '../../../lib/api-client';

export const userOptionsQuery = () => apiQueryOptions(calls.user.allUsers);

/** GET /api/all_user: every user not deleted, to choose members from. */
export function useUserOptions() {
  return useQuery(userOptionsQuery());
}
