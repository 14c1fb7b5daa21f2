import { calls } from '@quire/contract/calls';
import { useQuery } from '@tanstack/react-query';
import { apiQueryOptions } from '../../../lib/api-client';

export const groupsQuery = () => apiQueryOptions(calls.group.allGroups);

/** GET /api/all_group: every group with its members, by name. */
export function useGroups() {
  return useQuery(groupsQuery());
}
