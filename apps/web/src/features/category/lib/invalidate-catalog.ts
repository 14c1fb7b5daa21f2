import { calls } from '@quire/contract/calls';
import type { QueryClient } from '@tanstack/react-query';

/** After the catalog changes: every list, tree and detail of categories, groups and tags. */
export function invalidateCatalog(queryClient: QueryClient) {
  const c = calls.category;
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
      calls.metadata.userFields,
    ].map((entry) => queryClient.invalidateQueries({ queryKey: [entry.path] })),
  );
}
