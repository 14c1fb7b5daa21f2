import { calls } from '@quire/contract/calls';
import { useMutation } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';

/** POST /api/users/clear2fa without user_id: gives up the sign-in waiting for its code. */
export const clear2fa = async () => (await callApi(calls.auth.clear2fa, { body: undefined })).data;

export function useClear2fa() {
  return useMutation({ mutationKey: [calls.auth.clear2fa.path], mutationFn: clear2fa });
}
