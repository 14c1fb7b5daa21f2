import { calls } from '@quire/contract/calls';
import { useQuery } from '@tanstack/react-query';
import { apiQueryOptions } from '../../../lib/api-client';

/** GET /api/filter-attributes: the categories, fields, owners and steps to filter on. */
export function useFilterAttributes() {
  return useQuery({ ...apiQueryOptions(calls.dashboardAndSearch.filterAttributes), staleTime: 60_000 });
}
