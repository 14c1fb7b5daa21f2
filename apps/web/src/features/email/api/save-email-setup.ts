import { contract, type TEmailSetupBody } from '@quire/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';
import { emailSetupQuery } from './get-email-setup';

export const saveEmailSetup = async (body: TEmailSetupBody) =>
  (await callApi(contract.email.saveSetup, { body })).data;

/** POST /api/email/setup; the answer is the new saved state. */
export function useSaveEmailSetup() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveEmailSetup,
    onSuccess: (saved) => queryClient.setQueryData(emailSetupQuery().queryKey, saved),
  });
}
