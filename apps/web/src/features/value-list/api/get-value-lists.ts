import { calls } from '@quire/contract/calls';
import { useQuery } from '@tanstack/react-query';
import { apiQueryOptions } from '../../../lib/api-client';

export const valueListsQuery = () => apiQueryOptions(calls.valueList.valueLists);

/** GET /api/valuelist: every value list with its item count and the fields using it. */
export function useValueLists() {
  return useQuery(valueListsQuery());
}
