import { contract, type TAuthProviderBody } from '@quire/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';
import { authenticationQuery } from './get-authentication';

export const saveAuthentication = async (body: TAuthProviderBody) =>
  (await callApi(contract.settings.saveAuthentication, { body })).data;

/** POST /api/settings/authentication/create (create or update). */
export function useSaveAuthentication() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveAuthentication,
    onSuccess: (saved) => queryClient.setQueryData(authenticationQuery().queryKey, saved),
  });
}
