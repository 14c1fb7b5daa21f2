import { calls } from '@quire/contract/calls';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiQueryOptions, callApi, queryKeyFor } from '../../../lib/api-client';

const statusQuery = () => apiQueryOptions(calls.audit.chainStatus);

/** GET /api/audits/chain: whether the hash chain verified (polled while a check runs). */
export function useChainStatus() {
  return useQuery({
    ...statusQuery(),
    refetchInterval: (q) => (q.state.data?.verifying ? 2000 : false),
  });
}

/** POST /api/audits/chain/verify: walks the whole chain on the job runner. */
export function useVerifyChain() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async () => (await callApi(calls.audit.verifyChain)).data,
    onSuccess: (data) => client.setQueryData(queryKeyFor(calls.audit.chainStatus), data),
  });
}
