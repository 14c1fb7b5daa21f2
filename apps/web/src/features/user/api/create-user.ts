import type { Body, contract } from '@quire/contract';
import { calls } from '@quire/contract/calls';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';
import { invalidateUsers } from '../lib/invalidate-users';

export type CreateUserInput = Body<typeof contract.user.createUser>;

export const createUser = async (body: CreateUserInput) =>
  (await callApi(calls.user.createUser, { body })).data;

/** POST /api/users/createUser. */
export function useCreateUser() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: createUser, onSuccess: () => invalidateUsers(queryClient) });
}
