import { calls } from '@quire/contract/calls';
import type { QueryClient } from '@tanstack/react-query';

/** Every backup list (runs, schedule, archives) is stale after a change. */
export function invalidateBackups(queryClient: QueryClient) {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: [calls.backup.list.path] }),
    queryClient.invalidateQueries({ queryKey: [calls.backup.files.path] }),
  ]);
}
