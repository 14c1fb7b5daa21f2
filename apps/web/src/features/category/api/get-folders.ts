import { calls } from '@quire/contract/calls';
import { useQuery } from '@tanstack/react-query';
import { apiQueryOptions } from '../../../lib/api-client';

export const foldersQuery = () => apiQueryOptions(calls.category.folders);

/** GET /api/folders: the tree the signed-in person may view, flat in tree order. */
export function useFolders(options: { enabled?: boolean } = {}) {
  return useQuery({ ...foldersQuery(), ...options });
}
