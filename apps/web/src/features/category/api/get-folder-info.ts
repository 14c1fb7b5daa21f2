import { calls } from '@quire/contract/calls';
import { useQuery } from '@tanstack/react-query';
import { apiQueryOptions } from '../../../lib/api-client';

export const folderInfoQuery = (id: number) => apiQueryOptions(calls.category.folderInfo, { params: { id } });

/** GET /api/folder/info/{id}: one category with its sub-categories, fields, tags, groups and grants. */
export function useFolderInfo(id: number | null) {
  return useQuery({ ...folderInfoQuery(id ?? 0), enabled: id !== null });
}
