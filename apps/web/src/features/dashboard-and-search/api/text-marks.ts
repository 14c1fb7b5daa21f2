import { calls } from '@quire/contract/calls';
import { useQuery } from '@tanstack/react-query';
import { apiQueryOptions } from '../../../lib/api-client';

/**
 * GET /api/search/text-marks/{id}: where `words` are on `page` (1-based) of the file's
 * recognised pages, to draw over the preview; asked only when there are words to mark.
 */
export function useTextMarks(fileId: number | null, page: number, words: string[]) {
  return useQuery({
    ...apiQueryOptions(calls.dashboardAndSearch.textMarks, {
      params: { id: fileId ?? 0 },
      query: { page, words: words.join(' ') },
    }),
    enabled: fileId !== null && words.length > 0,
    staleTime: 60_000,
  });
}
