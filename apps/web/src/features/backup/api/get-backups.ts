import { calls } from '@quire/contract/calls';
import { useQuery } from '@tanstack/react-query';
import { apiQueryOptions } from '../../../lib/api-client';

export const backupsQuery = (page: number) =>
  apiQueryOptions(calls.backup.list, { query: { page, quantity: 20 } });

/** GET /api/backup: the runs and the schedule; polled every 2 s while one runs. */
export function useBackups(page = 1) {
  return useQuery({
    ...backupsQuery(page),
    refetchInterval: (query) =>
      query.state.data?.items.some((b) => ['queued', 'running', 'restoring'].includes(b.status))
        ? 2000
        : false,
  });
}
