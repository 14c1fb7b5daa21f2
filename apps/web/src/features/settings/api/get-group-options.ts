import { calls } from '@quire/contract/calls';
import { useQuery } from '@tanstack/react-query';
import { apiQueryOptions } from '../../../lib/api-client';

/** GET /api/all_group, for the group mapping's choices (the same query key as the groups page). */
export function useGroupOptions() {
  return useQuery({
    ...apiQueryOptions(calls.group.allGroups),
    select: (groups) => groups.map((g) => ({ id: g.id, name: g.name })),
  });
}
