import { calls } from '@quire/contract/calls';
import type { QueryClient } from '@tanstack/react-query';

/** After a user changes: the user lists, the pickers, the live sessions and the group counts. */
export function invalidateUsers(queryClient: QueryClient) {
  return Promise.all(
    [calls.user.users, calls.user.allUsers, calls.user.loggedInUsers, calls.group.allGroups].map((entry) =>
      queryClient.invalidateQueries({ queryKey: [entry.path] }),
    ),
  );
}
