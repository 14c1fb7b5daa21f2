import type { Body, contract } from '@quire/contract';
import { calls } from '@quire/contract/calls';
import { useMutation } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';

export type UpdatePasswordInput = Body<typeof contract.auth.updatePassword>;

/** PUT /account/updatepassword: one's own password (current + new + confirmation). */
export const updatePassword = async (body: UpdatePasswordInput) =>
  await callApi(calls.auth.updatePassword, { body });

export function useUpdatePassword() {
  return useMutation({ mutationKey: [calls.auth.updatePassword.path], mutationFn: updatePassword });
}
