import type { Body, contract } from '@quire/contract';
import { calls } from '@quire/contract/calls';
import { useMutation } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';

export type ResetPasswordInput = Body<typeof contract.auth.resetPassword>;

/** POST /account/reset-password: sets the new password and spends the link. */
export const resetPassword = async (body: ResetPasswordInput) =>
  await callApi(calls.auth.resetPassword, { body });

export function useResetPassword() {
  return useMutation({ mutationKey: [calls.auth.resetPassword.path], mutationFn: resetPassword });
}
