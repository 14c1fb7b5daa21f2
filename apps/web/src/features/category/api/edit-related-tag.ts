import type { Body, contract } from '@quire/contract';
import { calls } from '@quire/contract/calls';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';
import { invalidateCatalog } from '../lib/invalidate-catalog';

export type EditRelatedTagInput = Body<typeof contract.category.editRelatedTag>;

export const editRelatedTag = async (body: EditRelatedTagInput) =>
  (await callApi(calls.category.editRelatedTag, { body })).data;

/** POST /api/edit-related-tag. */
export function useEditRelatedTag() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: editRelatedTag, onSuccess: () => invalidateCatalog(queryClient) });
}
