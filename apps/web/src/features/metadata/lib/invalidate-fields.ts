import { contract } from '@quire/contract';
import type { QueryClient } from '@tanstack/react-query';

/** After a field changes: the field list, the value lists (which name their fields), categories' fields. */
export function invalidateFields(queryClient: QueryClient) {
  return Promise.all(
    [
      contract.metadata.userFields,
      contract.valueList.valueLists,
      contract.category.folderMeta,
      contract.category.folderInfo,
    ].map((entry) => queryClient.invalidateQueries({ queryKey: [entry.path] })),
  );
}
