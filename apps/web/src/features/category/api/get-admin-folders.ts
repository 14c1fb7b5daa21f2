import { contract } from '@quire/contract';
import { useQuery } from '@tanstack/react-query';
import { apiQueryOptions } from '../../../lib/api-client';

export const adminFoldersQuery = () => apiQueryOptions(contract.category.adminFileCategories);

/** GET /api/admin/fileCategories: every category with its path and counts (File Control). */
export function useAdminFolders(options: { enabled?: boolean } = {}) {
  return useQuery({ ...adminFoldersQuery(), ...options });
}
