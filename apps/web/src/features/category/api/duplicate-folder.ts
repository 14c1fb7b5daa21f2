import type { Body, contract } from '@quire/contract';
import { calls } from '@quire/contract/calls';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';
import { invalidateCatalog } from '../lib/invalidate-catalog';

export type DuplicateFolderInput = Body<typeof contract.category.duplicateFolder>;

export const duplicateFolder = async (body: DuplicateFolderInput) =>
  (await callApi(calls.category.duplicateFolder, { body })).data;

/** POST /api/duplicate/folder: a copy of the tree without its files. */
export function useDuplicateFolder() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: duplicateFolder, onSuccess: () => invalidateCatalog(queryClient) });
}
