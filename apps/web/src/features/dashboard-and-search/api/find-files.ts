import { contract, type TFilterFilesBody } from '@quire/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiQueryOptions, callApi, queryKeyFor } from '../../../lib/api-client';

/**
 * The search results page: GET /api/all-search-files for a search alone, POST
 * /api/filter-files when filters are set (the search text goes with them). Both answer the
 * same rows; a newer request cancels the one in flight.
 */
export function useFoundFiles(search: string, filters: TFilterFilesBody | null, page: number) {
  const all = apiQueryOptions(contract.dashboardAndSearch.allSearchFiles, { query: { search, page } });
  const filtered = queryOptions({
    queryKey: [
      ...queryKeyFor(contract.dashboardAndSearch.filterFiles, { query: { page } }),
      filters,
    ] as const,
    queryFn: async ({ signal }) =>
      (
        await callApi(contract.dashboardAndSearch.filterFiles, {
          query: { page },
          body: { ...filters, ...(search ? { search } : {}) },
          signal,
        })
      ).data,
  });
  const enabled = Boolean(filters) || /[\p{L}\p{N}]/u.test(search);
  return useQuery({
    ...(filters ? filtered : all),
    enabled,
    placeholderData: keepPreviousData,
  } as typeof all);
}
