import type { TDecideDispositionsInput } from '@quire/contract';
import { calls } from '@quire/contract/calls';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiQueryOptions, callApi } from '../../../lib/api-client';
import { invalidateFiles } from '../../../lib/invalidate-files';

// Dispositions (File Control): the files whose retention period is over, approved (the rule's
// review, trash or purge is carried out) or postponed, one or many at once. An approval may
// trash or purge files: the file lists refresh too.

export type DispositionStatus = 'pending' | 'postponed' | 'approved';

export function useDispositions(status: DispositionStatus, page: number) {
  return useQuery(apiQueryOptions(calls.retention.listDispositions, { query: { status, page } }));
}

export function useDecideDispositions() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: TDecideDispositionsInput) => callApi(calls.retention.decideDispositions, { body }),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: [calls.retention.listDispositions.path] });
      void invalidateFiles(client);
    },
  });
}

/** Runs the daily scan now; the due list refreshes. */
export function useScanDispositions() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => callApi(calls.retention.scanDispositions),
    onSuccess: () => void client.invalidateQueries({ queryKey: [calls.retention.listDispositions.path] }),
  });
}
