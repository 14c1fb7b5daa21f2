import { type Body, contract } from '@quire/contract';
import { useMutation } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';

export type UpdatePasswordInput = Body<typeof contract.auth.updatePassword>;

/** PUT /account/updatepassword: one's own password (current + new + confirmation). */
export const updatePassword = async (body: UpdatePasswordInput) =>
  await callApi(contract.auth.updatePassword, { body });

export function useUpdatePassword() {
  return useMutation({ mutationKey: [contract.auth.updatePassword.path], mutationFn: updatePassword });
}
