import { calls } from '@quire/contract/calls';
import type { QueryClient } from '@tanstack/react-query';

/** After a field changes: the field list, the value lists (which name their fields), categories' fields. */
export function invalidateFields(queryClient: QueryClient) {
  return Promise.all(
    [
      calls.metadata.userFields,
      calls.valueList.valueLists,
      calls.category.folderMeta,
      calls.category.folderInfo,
    ].map((entry) => queryClient.invalidateQueries({ queryKey: [entry.path] })),
  );
}
