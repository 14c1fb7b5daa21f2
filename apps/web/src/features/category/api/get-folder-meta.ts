import { contract } from '@quire/contract';
import { useQuery } from '@tanstack/react-query';
import { apiQueryOptions } from '../../../lib/api-client';

export const folderMetaQuery = (id: number) =>
  apiQueryOptions(contract.category.folderMeta, { params: { id } });

/** GET /api/folderMeta/{id}: a category's fields in order, inherited ones first. */
export function useFolderMeta(id: number | null) {
  return useQuery({ ...folderMetaQuery(id ?? 0), enabled: id !== null });
}
