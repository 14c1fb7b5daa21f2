import { calls } from '@quire/contract/calls';
import { useQuery } from '@tanstack/react-query';
import { apiQueryOptions } from '../../../lib/api-client';

export const categoryGroupsQuery = () => apiQueryOptions(calls.category.categoryGroups);

/** GET /api/category-groups: the category groups with their members. */
export function useCategoryGroups(options: { enabled?: boolean } = {}) {
  return useQuery({ ...categoryGroupsQuery(), ...options });
}
