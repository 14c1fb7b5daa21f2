import { calls } from '@quire/contract/calls';
import { useQuery } from '@tanstack/react-query';
import { apiQueryOptions } from '../../../lib/api-client';

/** GET /api/all_user: the people the trail can be filtered on. */
export function useAuditUsers() {
  return useQuery({ ...apiQueryOptions(calls.user.allUsers), staleTime: 60_000 });
}
