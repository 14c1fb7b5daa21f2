import type { Body, contract } from '@quire/contract';
import { calls } from '@quire/contract/calls';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';
import { refreshSavedViews } from './list-saved-views';

export type UpdateSavedViewInput = Body<typeof contract.savedView.updateSavedView> & { id: number };

/** PATCH /api/saved-views/{id}: rename, pin or unpin, or move a view. */
export function useUpdateSavedView() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, ...body }: UpdateSavedViewInput) =>
      (await callApi(calls.savedView.updateSavedView, { params: { id }, body })).data,
    onSuccess: () => refreshSavedViews(client),
  });
}
