import { calls } from '@quire/contract/calls';
import { useQuery } from '@tanstack/react-query';
import { apiQueryOptions } from '../../../lib/api-client';

export const valueListQuery = (id: number) => apiQueryOptions(calls.valueList.valueList, { params: { id } });

/** GET /api/valuelist/{id}: one list with its items in order. */
export function useValueList(id: number | null) {
  return useQuery({ ...valueListQuery(id ?? 0), enabled: id !== null });
}
