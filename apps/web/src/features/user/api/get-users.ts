import type { contract, Query } from '@quire/contract';
import { calls } from '@quire/contract/calls';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiQueryOptions } from '../../../lib/api-client';

export type UsersQuery = NonNullable<Query<typeof contract.user.users>>;

export const usersQuery = (query: UsersQuery) => apiQueryOptions(calls.user.users, { query });

/**
 * GET /api/users/all, a page at a time. A newer search replaces the one in flight: the old
 * request is aborted (TanStack Query cancels a query nobody watches) and that is not an error.
 */
export function useUsers(query: UsersQuery) {
  return useQuery({ ...usersQuery(query), placeholderData: keepPreviousData });
}
