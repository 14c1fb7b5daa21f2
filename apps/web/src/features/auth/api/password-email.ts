import { calls } from '@quire/contract/calls';
import { useMutation } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';

/** POST /account/password/email: sends a reset link (the same answer for any address). */
export const passwordEmail = async (email: string) =>
  await callApi(calls.auth.passwordEmail, { body: { email } });

export function usePasswordEmail() {
  return useMutation({ mutationKey: [calls.auth.passwordEmail.path], mutationFn: passwordEmail });
}
