import type { Body, contract } from '@quire/contract';
import { calls } from '@quire/contract/calls';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';
import { refreshSavedViews } from './list-saved-views';

export type CreateSavedViewInput = Body<typeof contract.savedView.createSavedView>;

/** POST /api/saved-views: saves the search by name, last in the list. */
export function useCreateSavedView() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (body: CreateSavedViewInput) =>
      (await callApi(calls.savedView.createSavedView, { body })).data,
    onSuccess: () => refreshSavedViews(client),
  });
}
