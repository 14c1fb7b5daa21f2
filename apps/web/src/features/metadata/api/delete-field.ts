import { calls } from '@quire/contract/calls';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';
import { invalidateFields } from '../lib/invalidate-fields';

export const deleteField = async (id: number) =>
  (await callApi(calls.metadata.deleteUserField, { params: { id } })).data;

/** DELETE /api/deleteUserField/{id}: refused (409, saying where) while the field is used. */
export function useDeleteField() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: deleteField, onSuccess: () => invalidateFields(queryClient) });
}
