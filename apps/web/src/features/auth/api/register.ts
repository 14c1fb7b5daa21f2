import type { Body, contract } from '@quire/contract';
import { calls } from '@quire/contract/calls';
import { useMutation } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';

export type RegisterInput = Body<typeof contract.auth.register>;

/** POST /account/register: a General staff account, inactive until its e-mail link is followed. */
export const register = async (body: RegisterInput) => await callApi(calls.auth.register, { body });

export function useRegister() {
  return useMutation({ mutationKey: [calls.auth.register.path], mutationFn: register });
}
