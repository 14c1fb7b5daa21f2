import { contract } from '@quire/contract';
import type { QueryClient } from '@tanstack/react-query';

/** After a value list changes: the lists, one list, its items, and the fields that name them. */
export function invalidateValueLists(queryClient: QueryClient) {
  const v = contract.valueList;
  return Promise.all(
    [v.valueLists, v.valueList, v.valueListItems, contract.metadata.userFields].map((entry) =>
      queryClient.invalidateQueries({ queryKey: [entry.path] }),
    ),
  );
}
