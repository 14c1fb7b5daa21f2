import { type DataTag, type QueryKey, useMutation, useQueryClient } from '@tanstack/react-query';

/**
 * A write whose answer is the new stored state (settings, a licence): the answer takes the
 * place of `queryKey`'s data, so the page shows what was stored without asking again.
 */
export function useSavingMutation<A, D, R extends D>(
  queryKey: DataTag<QueryKey, D, unknown>,
  mutationFn: (arg: A) => Promise<R>,
) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn, onSuccess: (saved) => queryClient.setQueryData(queryKey, saved) });
}
