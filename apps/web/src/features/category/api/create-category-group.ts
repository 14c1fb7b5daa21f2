import type { Body, contract } from '@quire/contract';
import { calls } from '@quire/contract/calls';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';
import { invalidateCatalog } from '../lib/invalidate-catalog';

export type CreateCategoryGroupInput = Body<typeof contract.category.createCategoryGroup>;

export const createCategoryGroup = async (body: CreateCategoryGroupInput) =>
  (await callApi(calls.category.createCategoryGroup, { body })).data;

/** POST /api/create/category-group. */
export function useCreateCategoryGroup() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: createCategoryGroup, onSuccess: () => invalidateCatalog(queryClient) });
}
