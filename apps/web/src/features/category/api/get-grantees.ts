import { calls } from '@quire/contract/calls';
import { useQuery } from '@tanstack/react-query';
import { apiQueryOptions } from '../../../lib/api-client';

export const granteesQuery = () => apiQueryOptions(calls.category.grantees);

/** GET /api/category-grantees (extension): the people and groups rights go to. */
export function useGrantees(options: { enabled?: boolean } = {}) {
  return useQuery({ ...granteesQuery(), ...options });
}
