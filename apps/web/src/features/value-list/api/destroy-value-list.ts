import { contract } from '@quire/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';
import { invalidateValueLists } from '../lib/invalidate-value-lists';

export const destroyValueList = async (id: number) =>
  (await callApi(contract.valueList.destroyValueList, { params: { id } })).data;

/** DELETE /api/destroyValueList/{id}: refused (409, naming the fields) while a field uses it. */
export function useDestroyValueList() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: destroyValueList, onSuccess: () => invalidateValueLists(queryClient) });
}
