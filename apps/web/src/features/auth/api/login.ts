import type { Body, contract } from '@quire/contract';
import { useMutation } from '@tanstack/react-query';
import { callApi, endpointRef } from '../../../lib/api-client';

type LoginEntry = typeof contract.auth.login;
export type LoginInput = Body<LoginEntry>;

// The sign-in page is part of the first load: a reference, not the contract's schemas.
const loginEntry = endpointRef<LoginEntry>({ method: 'POST', path: '/api/login' });

export const login = async (body: LoginInput) => (await callApi(loginEntry, { body })).data;

/** POST /api/login. */
export function useLogin() {
  return useMutation({ mutationKey: [loginEntry.path], mutationFn: login });
}
