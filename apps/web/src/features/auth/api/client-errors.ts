import type { contract, Query } from '@quire/contract';
import { calls } from '@quire/contract/calls';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiQueryOptions } from '../../../lib/api-client';

export type ClientErrorsQuery = NonNullable<Query<typeof contract.auth.clientErrors>>;

export const clientErrorsQuery = (query: ClientErrorsQuery) =>
  apiQueryOptions(calls.auth.clientErrors, { query });

/** GET /api/client-errors: the errors web clients reported, newest first, a page at a time. */
export function useClientErrors(query: ClientErrorsQuery) {
  return useQuery({ ...clientErrorsQuery(query), placeholderData: keepPreviousData });
}
