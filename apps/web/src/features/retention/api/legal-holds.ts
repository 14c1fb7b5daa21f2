import type { TCreateLegalHoldInput } from '@quire/contract';
import { calls } from '@quire/contract/calls';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiQueryOptions, callApi } from '../../../lib/api-client';

// Legal holds (File Control): the list (in force or released), a hold set on a file, a
// category or one of the person's saved searches, and a release with its reason. Setting or
// releasing one changes the holds and whether dispositions are held.

export type HoldStatus = 'active' | 'released';

export function useLegalHolds(status: HoldStatus, page: number) {
  return useQuery(apiQueryOptions(calls.retention.listLegalHolds, { query: { status, page } }));
}

/** The files of a category to choose one to hold (by name). */
export function useCategoryFiles(categoryId: number | null) {
  return useQuery({
    ...apiQueryOptions(calls.category.fileIncategory, {
      params: { id: categoryId ?? 0 },
      query: { quantity: 500 },
    }),
    enabled: categoryId !== null,
  });
}

/** The person's own saved searches: one can be held (the files it matches now). */
export function useMySavedViews() {
  return useQuery(apiQueryOptions(calls.savedView.listSavedViews));
}

function useInvalidateHolds() {
  const client = useQueryClient();
  return () =>
    Promise.all([
      client.invalidateQueries({ queryKey: [calls.retention.listLegalHolds.path] }),
      client.invalidateQueries({ queryKey: [calls.retention.listDispositions.path] }),
    ]);
}

export function useCreateLegalHold() {
  const invalidate = useInvalidateHolds();
  return useMutation({
    mutationFn: (body: TCreateLegalHoldInput) => callApi(calls.retention.createLegalHold, { body }),
    onSuccess: () => void invalidate(),
  });
}

export function useReleaseLegalHold() {
  const invalidate = useInvalidateHolds();
  return useMutation({
    mutationFn: ({ id, reason }: { id: number; reason: string }) =>
      callApi(calls.retention.releaseLegalHold, { params: { id }, body: { reason } }),
    onSuccess: () => void invalidate(),
  });
}
