import { calls } from '@quire/contract/calls';
import { callApi } from '../../../lib/api-client';
import { useSavingMutation } from '../../../lib/use-saving-mutation';
import { licenceQuery } from './get-licence';

export const installLicence = async (licence: string) =>
  (await callApi(calls.licence.install, { body: { licence } })).data;

/** POST /api/controlpanel/license-management: the answer is the new state. */
export function useInstallLicence() {
  return useSavingMutation(licenceQuery().queryKey, installLicence);
}
