import { contract } from '@quire/contract';
import { useQuery } from '@tanstack/react-query';
import { apiQueryOptions } from '../../../lib/api-client';

export const categoryGroupsQuery = () => apiQueryOptions(contract.category.categoryGroups);

/** GET /api/category-groups: the category groups with their members. */
export function useCategoryGroups(options: { enabled?: boolean } = {}) {
  return useQuery({ ...categoryGroupsQuery(), ...options });
}
