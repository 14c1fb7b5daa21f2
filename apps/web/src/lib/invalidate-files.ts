import type { QueryClient } from '@tanstack/react-query';

/**
 * Everything a change to a file may have touched: the file, every file list (a category's,
 * unindexed, checked out, favourites, deleted, the trash) and the notifications. Any area
 * that changes files calls it (the files area's actions, the trash's restore and purge).
 */
export function invalidateFiles(client: QueryClient) {
  return client.invalidateQueries({
    predicate: (q) =>
      typeof q.queryKey[0] === 'string' &&
      /^\/api\/(file|fileIncategory|unindex|checked-out|favorite|get-notification|files)/.test(q.queryKey[0]),
  });
}
