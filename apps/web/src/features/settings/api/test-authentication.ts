import type { TAuthProviderBody } from '@quire/contract';
import { calls } from '@quire/contract/calls';
import { useMutation } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';

export const testAuthentication = async (input: { settings: TAuthProviderBody; username: string }) =>
  (await callApi(calls.settings.testAuthentication, { body: input })).data;

/** POST /api/settings/authentication/test: bind and look up one user; nothing is stored. */
export function useTestAuthentication() {
  return useMutation({ mutationFn: testAuthentication });
}
