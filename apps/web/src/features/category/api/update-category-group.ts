import type { Body, contract } from '@quire/contract';
import { calls } from '@quire/contract/calls';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';
import { invalidateCatalog } from '../lib/invalidate-catalog';

export type UpdateCategoryGroupInput = Body<typeof contract.category.updateCategoryGroup>;

export const updateCategoryGroup = async (body: UpdateCategoryGroupInput) =>
  (await callApi(calls.category.updateCategoryGroup, { body })).data;

/** POST /api/update/category-group: members and grants replaced when given. */
export function useUpdateCategoryGroup() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: updateCategoryGroup, onSuccess: () => invalidateCatalog(queryClient) });
}
