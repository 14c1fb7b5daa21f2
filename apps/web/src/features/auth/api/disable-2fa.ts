import type { Body, contract } from '@quire/contract';
import { calls } from '@quire/contract/calls';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callApi, queryKeyFor } from '../../../lib/api-client';

export type Disable2faInput = Body<typeof contract.auth.disable2fa>;

export const disable2fa = async (body: Disable2faInput) =>
  (await callApi(calls.auth.disable2fa, { body })).data;

/** POST /api/users/disable2fa with a current code or the password. */
export function useDisable2fa() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: [calls.auth.disable2fa.path],
    mutationFn: disable2fa,
    onSuccess: async (state) => {
      queryClient.setQueryData(queryKeyFor(calls.auth.is2faEnabled), state);
      await queryClient.invalidateQueries({ queryKey: queryKeyFor(calls.user.current) });
    },
  });
}
