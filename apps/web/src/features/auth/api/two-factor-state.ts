import { calls } from '@quire/contract/calls';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callApi, queryKeyFor } from '../../../lib/api-client';

/** POST /api/users/is2faenabled (no body): whether the company and the user use 2FA. */
export const twoFactorStateQuery = () =>
  queryOptions({
    queryKey: queryKeyFor(calls.auth.is2faEnabled),
    queryFn: async ({ signal }) => (await callApi(calls.auth.is2faEnabled, { body: undefined, signal })).data,
  });

export function useTwoFactorState() {
  return useQuery(twoFactorStateQuery());
}
