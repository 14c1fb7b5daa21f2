import { calls } from '@quire/contract/calls';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';
import { refreshSavedViews } from './list-saved-views';

/** DELETE /api/saved-views/{id}. */
export function useDeleteSavedView() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (id: number) =>
      (await callApi(calls.savedView.deleteSavedView, { params: { id } })).data,
    onSuccess: () => refreshSavedViews(client),
  });
}
