import type { Body, contract } from '@quire/contract';
import { calls } from '@quire/contract/calls';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';
import { invalidateCatalog } from '../lib/invalidate-catalog';

export type AddRelatedTagsInput = Body<typeof contract.category.addRelatedTags>;

export const addRelatedTags = async (body: AddRelatedTagsInput) =>
  (await callApi(calls.category.addRelatedTags, { body })).data;

/** POST /api/add-related-tags. */
export function useAddRelatedTags() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: addRelatedTags, onSuccess: () => invalidateCatalog(queryClient) });
}
