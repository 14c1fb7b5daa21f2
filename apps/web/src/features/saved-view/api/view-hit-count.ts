import type { TSavedViewQuery } from '@quire/contract';
import { calls } from '@quire/contract/calls';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callApi, queryKeyFor } from '../../../lib/api-client';

/**
 * How many files a view finds now: POST /api/filter-files for one row, whose answer counts
 * them (up to 10,000, then `total_exact` is false). Refreshed with the file lists (same path).
 */
export function useViewHitCount(query: TSavedViewQuery) {
  const page = { page: 1, quantity: 1 };
  return useQuery(
    queryOptions({
      queryKey: [...queryKeyFor(calls.dashboardAndSearch.filterFiles, { query: page }), query] as const,
      queryFn: async ({ signal }) => {
        const { data } = await callApi(calls.dashboardAndSearch.filterFiles, {
          query: page,
          body: query,
          signal,
        });
        return { total: data.total, exact: data.total_exact };
      },
      staleTime: 60_000,
    }),
  );
}
