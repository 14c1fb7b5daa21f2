import { calls } from '@quire/contract/calls';
import { useQuery } from '@tanstack/react-query';
import { apiQueryOptions } from '../../../lib/api-client';

/**
 * GET /api/search-files: the header's suggestions. Each new text is a new query; the previous
 * request, left without observers, is cancelled through its AbortSignal (spec §7) and its
 * cancellation is ignored silently (TanStack Query does not surface it as an error).
 */
export function useSearchSuggestions(search: string) {
  return useQuery({
    ...apiQueryOptions(calls.dashboardAndSearch.searchFiles, { query: { search, quantity: 8 } }),
    enabled: /[\p{L}\p{N}]/u.test(search),
    staleTime: 30_000,
  });
}
