import type { Body, contract } from '@quire/contract';
import { calls } from '@quire/contract/calls';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';
import { invalidateCatalog } from '../lib/invalidate-catalog';

export type DeleteFolderInput = Body<typeof contract.category.deleteFolder>;

export const deleteFolder = async (body: DeleteFolderInput) =>
  (await callApi(calls.category.deleteFolder, { body })).data;

/** POST /api/deleteFolder: the category and its sub-categories go, their files to the trash (a 409 asks to confirm their number). */
export function useDeleteFolder() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: deleteFolder, onSuccess: () => invalidateCatalog(queryClient) });
}
