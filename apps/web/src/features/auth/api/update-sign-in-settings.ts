import { contract, type TSignInSettings } from '@quire/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';
import { signInSettingsQuery } from './sign-in-settings';

export const updateSignInSettings = async (body: Partial<TSignInSettings>) =>
  (await callApi(contract.auth.updateSignInSettings, { body })).data;

/** PUT /api/sign-in-settings with the settings that change; the answer is the new state. */
export function useUpdateSignInSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateSignInSettings,
    onSuccess: (saved) => queryClient.setQueryData(signInSettingsQuery().queryKey, saved),
  });
}
