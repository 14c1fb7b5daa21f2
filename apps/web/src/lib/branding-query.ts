import { queryOptions, useQuery } from '@tanstack/react-query';
import { callApi, queryKeyFor } from './api-client';
import { brandingEntry } from './branding';

export const brandingQuery = () =>
  queryOptions({
    queryKey: queryKeyFor(brandingEntry),
    queryFn: async ({ signal }) => (await callApi(brandingEntry, { signal })).data,
    // The branding changes seldom; a failure only means the plain Quire mark is shown.
    staleTime: 5 * 60_000,
    retry: false,
  });

/** The branding in the signed-in frame, or undefined while it loads or when it cannot be had. */
export function useBranding() {
  return useQuery(brandingQuery()).data;
}
