import type { TSignInSettings } from '@quire/contract';
import { calls } from '@quire/contract/calls';
import { callApi } from '../../../lib/api-client';
import { useSavingMutation } from '../../../lib/use-saving-mutation';
import { signInSettingsQuery } from './sign-in-settings';

export const updateSignInSettings = async (body: Partial<TSignInSettings>) =>
  (await callApi(calls.auth.updateSignInSettings, { body })).data;

/** PUT /api/sign-in-settings with the settings that change; the answer is the new state. */
export function useUpdateSignInSettings() {
  return useSavingMutation(signInSettingsQuery().queryKey, updateSignInSettings);
}
