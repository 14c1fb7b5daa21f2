import { calls } from '@quire/contract/calls';
import { useQuery } from '@tanstack/react-query';
import { apiQueryOptions } from '../../../lib/api-client';

export const valueListsQuery = () => apiQueryOptions(calls.valueList.valueLists);

/** GET /api/valuelist: the value lists a value-list field can choose from. */
export function useValueLists(options: { enabled?: boolean } = {}) {
  return useQuery({ ...valueListsQuery(), ...options });
}
