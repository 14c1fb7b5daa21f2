import type { TEmailSetupBody } from '@quire/contract';
import { calls } from '@quire/contract/calls';
import { callApi } from '../../../lib/api-client';
import { useSavingMutation } from '../../../lib/use-saving-mutation';
import { emailSetupQuery } from './get-email-setup';

export const saveEmailSetup = async (body: TEmailSetupBody) =>
  (await callApi(calls.email.saveSetup, { body })).data;

/** POST /api/email/setup; the answer is the new saved state. */
export function useSaveEmailSetup() {
  return useSavingMutation(emailSetupQuery().queryKey, saveEmailSetup);
}
