import { type Body, contract } from '@quire/contract';
import { useMutation } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';

export type LoginInput = Body<typeof contract.auth.login>;

export const login = async (body: LoginInput) => (await callApi(contract.auth.login, { body })).data;

/** POST /api/login. */
export function useLogin() {
  return useMutation({ mutationKey: [contract.auth.login.path], mutationFn: login });
}
