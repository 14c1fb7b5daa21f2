import { contract } from '@quire/contract';
import type { QueryClient } from '@tanstack/react-query';

/** After a user changes: the user lists, the pickers, the live sessions and the group counts. */
export function invalidateUsers(queryClient: QueryClient) {
  return Promise.all(
    [contract.user.users, contract.user.allUsers, contract.user.loggedInUsers, contract.group.allGroups].map(
      (entry) => queryClient.invalidateQueries({ queryKey: [entry.path] }),
    ),
  );
}
