import type { Body, contract } from '@quire/contract';
import { calls } from '@quire/contract/calls';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';
import { invalidateCatalog } from '../lib/invalidate-catalog';

export type StoreFolderInput = Body<typeof contract.category.storeFolder>;

export const storeFolder = async (body: StoreFolderInput) =>
  (await callApi(calls.category.storeFolder, { body })).data;

/** POST /api/storeFolder: a new category. */
export function useStoreFolder() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: storeFolder, onSuccess: () => invalidateCatalog(queryClient) });
}
