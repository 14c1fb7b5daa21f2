import type { Body, contract } from '@quire/contract';
import { calls } from '@quire/contract/calls';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';
import { invalidateValueLists } from '../lib/invalidate-value-lists';

export type CreateValueListInput = Body<typeof contract.valueList.createValueList>;

export const createValueList = async (body: CreateValueListInput) =>
  (await callApi(calls.valueList.createValueList, { body })).data;

/** POST /api/create_value_list: items without a key get a free random one. */
export function useCreateValueList() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: createValueList, onSuccess: () => invalidateValueLists(queryClient) });
}
