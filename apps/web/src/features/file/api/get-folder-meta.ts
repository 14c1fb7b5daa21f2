import { calls } from '@quire/contract/calls';
import { useQuery } from '@tanstack/react-query';
import { apiQueryOptions } from '../../../lib/api-client';

/** GET /api/folderMeta/{id}: a category's fields in order (inherited ones first), for its index form. */
export function useFolderMeta(id: number | null) {
  return useQuery({
    ...apiQueryOptions(calls.category.folderMeta, { params: { id: id ?? 0 } }),
    enabled: id !== null,
  });
}
