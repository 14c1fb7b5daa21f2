import type { Body, contract } from '@quire/contract';
import { calls } from '@quire/contract/calls';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';
import { invalidateCatalog } from '../lib/invalidate-catalog';

export type UpdateFolderInput = Body<typeof contract.category.updateFolder>;

export const updateFolder = async (body: UpdateFolderInput) =>
  (await callApi(calls.category.updateFolder, { body })).data;

/** POST /api/update/folder: rename, move, reorder, or replace fields or grants. */
export function useUpdateFolder() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: updateFolder, onSuccess: () => invalidateCatalog(queryClient) });
}
