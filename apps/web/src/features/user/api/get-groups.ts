import { calls } from '@quire/contract/calls';
import { useQuery } from '@tanstack/react-query';
import { apiQueryOptions } from '../../../lib/api-client';

export const groupsQuery = () => apiQueryOptions(calls.group.allGroups);

/** GET /api/all_group: the groups a user can be put in. */
export function useGroups(options: { enabled?: boolean } = {}) {
  return useQuery({ ...groupsQuery(), ...options });
}
