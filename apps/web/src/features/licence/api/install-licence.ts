import { contract } from '@quire/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';
import { licenceQuery } from './get-licence';

export const installLicence = async (licence: string) =>
  (await callApi(contract.licence.install, { body: { licence } })).data;

/** POST /api/controlpanel/license-management: the answer is the new state. */
export function useInstallLicence() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: installLicence,
    onSuccess: (state) => queryClient.setQueryData(licenceQuery().queryKey, state),
  });
}
