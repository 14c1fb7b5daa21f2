import { contract } from '@quire/contract';
import { useQuery } from '@tanstack/react-query';
import { apiQueryOptions } from '../../../lib/api-client';

/** GET /api/valuelist-items/{id}: the choices of a value-list field, in order. */
export function useValueListItems(id: number | null) {
  return useQuery({
    ...apiQueryOptions(contract.valueList.valueListItems, { params: { id: id ?? 0 } }),
    enabled: id !== null,
    staleTime: 60_000,
  });
}
