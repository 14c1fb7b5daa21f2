import { calls } from '@quire/contract/calls';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';
import { invalidateCatalog } from '../lib/invalidate-catalog';

export const deleteCategoryGroup = async (id: number) =>
  (await callApi(calls.category.deleteCategoryGroup, { params: { id } })).data;

/** POST /api/delete/category-group/{id} (extension): its grants stop applying. */
export function useDeleteCategoryGroup() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: deleteCategoryGroup, onSuccess: () => invalidateCatalog(queryClient) });
}
