import { calls } from '@quire/contract/calls';
import { useQuery } from '@tanstack/react-query';
import { apiQueryOptions } from '../../../lib/api-client';

/** GET /api/search/text-status/{id}: whether the file's text was read for search (polls while pending). */
export function useTextStatus(fileId: number) {
  return useQuery({
    ...apiQueryOptions(calls.dashboardAndSearch.textStatus, { params: { id: fileId } }),
    refetchInterval: (q) =>
      q.state.data && (q.state.data.status === null || q.state.data.status === 'pending') ? 3000 : false,
  });
}
