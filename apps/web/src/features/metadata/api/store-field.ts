import type { Body, contract } from '@quire/contract';
import { calls } from '@quire/contract/calls';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';
import { invalidateFields } from '../lib/invalidate-fields';

export type StoreFieldInput = Body<typeof contract.metadata.storeUserField>;

export const storeField = async (body: StoreFieldInput) =>
  (await callApi(calls.metadata.storeUserField, { body })).data;

/** POST /api/store_user_field: create (no id) or update (id) a field. */
export function useStoreField() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: storeField, onSuccess: () => invalidateFields(queryClient) });
}
