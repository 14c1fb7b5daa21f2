import { calls } from '@quire/contract/calls';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';
import { invalidateValueLists } from '../lib/invalidate-value-lists';

export const destroyValueList = async (id: number) =>
  (await callApi(calls.valueList.destroyValueList, { params: { id } })).data;

/** DELETE /api/destroyValueList/{id}: refused (409, naming the fields) while a field uses it. */
export function useDestroyValueList() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: destroyValueList, onSuccess: () => invalidateValueLists(queryClient) });
}
