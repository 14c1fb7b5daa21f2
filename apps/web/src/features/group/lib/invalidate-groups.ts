import { calls } from '@quire/contract/calls';
import type { QueryClient } from '@tanstack/react-query';

/** After a group changes: the group list and the user rows that show their groups. */
export function invalidateGroups(queryClient: QueryClient) {
  return Promise.all(
    [calls.group.allGroups, calls.user.users].map((entry) =>
      queryClient.invalidateQueries({ queryKey: [entry.path] }),
    ),
  );
}
