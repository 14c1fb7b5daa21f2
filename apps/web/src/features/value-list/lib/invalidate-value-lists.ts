import { calls } from '@quire/contract/calls';
import type { QueryClient } from '@tanstack/react-query';

/** After a value list changes: the lists, one list, its items, and the fields that name them. */
export function invalidateValueLists(queryClient: QueryClient) {
  const v = calls.valueList;
  return Promise.all(
    [v.valueLists, v.valueList, v.valueListItems, calls.metadata.userFields].map((entry) =>
      queryClient.invalidateQueries({ queryKey: [entry.path] }),
    ),
  );
}
