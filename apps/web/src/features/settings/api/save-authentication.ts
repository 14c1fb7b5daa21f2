import type { TAuthProviderBody } from '@quire/contract';
import { calls } from '@quire/contract/calls';
import { callApi } from '../../../lib/api-client';
import { useSavingMutation } from '../../../lib/use-saving-mutation';
import { authenticationQuery } from './get-authentication';

export const saveAuthentication = async (body: TAuthProviderBody) =>
  (await callApi(calls.settings.saveAuthentication, { body })).data;

/** POST /api/settings/authentication/create (create or update). */
export function useSaveAuthentication() {
  return useSavingMutation(authenticationQuery().queryKey, saveAuthentication);
}
