import type { contract, Query } from '@quire/contract';
import { calls } from '@quire/contract/calls';
import { useQuery } from '@tanstack/react-query';
import { apiQueryOptions } from '../../../lib/api-client';

export type FileCategoriesQuery = NonNullable<Query<typeof contract.category.fileCategories>>;

export const fileCategoriesQuery = (query: FileCategoriesQuery = {}) =>
  apiQueryOptions(calls.category.fileCategories, { query });

/** GET /api/fileCategories: categories for pickers (optionally where a right is held). */
export function useFileCategories(query: FileCategoriesQuery = {}, options: { enabled?: boolean } = {}) {
  return useQuery({ ...fileCategoriesQuery(query), ...options });
}
