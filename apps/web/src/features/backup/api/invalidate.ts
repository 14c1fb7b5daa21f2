import { contract } from '@quire/contract';
import type { QueryClient } from '@tanstack/react-query';

/** Every backup list (runs, schedule, archives) is stale after a change. */
export function invalidateBackups(queryClient: QueryClient) {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: [contract.backup.list.path] }),
    queryClient.invalidateQueries({ queryKey: [contract.backup.files.path] }),
  ]);
}
