import { calls } from '@quire/contract/calls';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';
import { invalidateCatalog } from '../lib/invalidate-catalog';

export const deleteRelatedTag = async (id: number) =>
  (await callApi(calls.category.deleteRelatedTag, { params: { id } })).data;

/** POST /api/delete-related-tag/{id}. */
export function useDeleteRelatedTag() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: deleteRelatedTag, onSuccess: () => invalidateCatalog(queryClient) });
}
