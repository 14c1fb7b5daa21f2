import { contract } from '@quire/contract';
import type { QueryClient } from '@tanstack/react-query';

/** After a group changes: the group list and the user rows that show their groups. */
export function invalidateGroups(queryClient: QueryClient) {
  return Promise.all(
    [contract.group.allGroups, contract.user.users].map((entry) =>
      queryClient.invalidateQueries({ queryKey: [entry.path] }),
    ),
  );
}
