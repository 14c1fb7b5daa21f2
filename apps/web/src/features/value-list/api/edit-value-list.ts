import type { Body, contract } from '@quire/contract';
import { calls } from '@quire/contract/calls';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';
import { invalidateValueLists } from '../lib/invalidate-value-lists';

export type EditValueListInput = Body<typeof contract.valueList.editValueList>;

export const editValueList = async ({ id, body }: { id: number; body: EditValueListInput }) =>
  (await callApi(calls.valueList.editValueList, { params: { id }, body })).data;

/** PUT /api/edit_value_list/{id}: `items` is the whole list in order. */
export function useEditValueList() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: editValueList, onSuccess: () => invalidateValueLists(queryClient) });
}
