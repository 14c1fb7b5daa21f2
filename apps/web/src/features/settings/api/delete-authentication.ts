import { calls } from '@quire/contract/calls';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';
import { authenticationQuery } from './get-authentication';

export const deleteAuthentication = async (id: number) =>
  (await callApi(calls.settings.deleteAuthentication, { body: { id } })).data;

/** POST /api/settings/authentication/delete. */
export function useDeleteAuthentication() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteAuthentication,
    onSuccess: () => queryClient.setQueryData(authenticationQuery().queryKey, null),
  });
}
