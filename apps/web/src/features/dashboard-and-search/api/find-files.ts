import type { TFilterFilesBody } from '@quire/contract';
import { calls } from '@quire/contract/calls';
import { keepPreviousData, type QueryClient, queryOptions, useQuery } from '@tanstack/react-query';
import { apiQueryOptions, callApi, queryKeyFor } from '../../../lib/api-client';

/**
 * The search results page: GET /api/all-search-files for a search alone, POST
 * /api/filter-files when filters are set (the search text goes with them). Both answer the
 * same rows; a newer request cancels the one in flight.
 */
export function useFoundFiles(search: string, filters: TFilterFilesBody | null, page: number) {
  const all = apiQueryOptions(calls.dashboardAndSearch.allSearchFiles, { query: { search, page } });
  const filtered = queryOptions({
    queryKey: [...queryKeyFor(calls.dashboardAndSearch.filterFiles, { query: { page } }), filters] as const,
    queryFn: async ({ signal }) =>
      (
        await callApi(calls.dashboardAndSearch.filterFiles, {
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

/**
 * Marks every answer of the results page stale: a search asked for again (the same words,
 * once more) is asked of the server, not read from a minute-old answer — a file indexed or
 * recognised meanwhile then shows.
 */
export function refreshFoundFiles(client: QueryClient) {
  const paths: string[] = [
    calls.dashboardAndSearch.allSearchFiles.path,
    calls.dashboardAndSearch.filterFiles.path,
  ];
  return client.invalidateQueries({ predicate: (q) => paths.includes(q.queryKey[0] as string) });
}
