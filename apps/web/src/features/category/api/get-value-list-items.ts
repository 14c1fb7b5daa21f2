import { contract } from '@quire/contract';
import { useQuery } from '@tanstack/react-query';
import { apiQueryOptions } from '../../../lib/api-client';

export const valueListItemsQuery = (id: number) =>
  apiQueryOptions(contract.valueList.valueListItems, { params: { id } });

/** GET /api/valuelist-items/{id}: the items of a value list, to choose a default value from. */
export function useValueListItems(id: number | null) {
  return useQuery({ ...valueListItemsQuery(id ?? 0), enabled: id !== null });
}
