import { contract } from '@quire/contract';
import type { QueryClient } from '@tanstack/react-query';

/** After the catalog changes: every list, tree and detail of categories, groups and tags. */
export function invalidateCatalog(queryClient: QueryClient) {
  const c = contract.category;
  return Promise.all(
    [
      c.folders,
      c.adminFileCategories,
      c.fileCategories,
      c.folderInfo,
      c.folderMeta,
      c.categoryGroups,
      c.categoryGroup,
      c.relatedTags,
      contract.metadata.userFields,
    ].map((entry) => queryClient.invalidateQueries({ queryKey: [entry.path] })),
  );
}
