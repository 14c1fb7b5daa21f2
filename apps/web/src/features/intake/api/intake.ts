import type { TIntakeRuleInput, TIntakeSourceInput } from '@quire/contract';
import { calls } from '@quire/contract/calls';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiQueryOptions, callApi } from '../../../lib/api-client';

// Intake (File Control): sources with their state, the rules in order, the dry run and the
// arrivals. A change to a source or rule refreshes its list; a retry refreshes the arrivals
// and the sources' counts.

const SOURCES = [calls.intake.listIntakeSources.path];
const RULES = [calls.intake.listIntakeRules.path];
const ARRIVALS = [calls.intake.listIntakeArrivals.path];
const DRY_RUN = [calls.intake.dryRunIntakeRules.path];

export function useIntakeSources() {
  return useQuery({ ...apiQueryOptions(calls.intake.listIntakeSources), refetchInterval: 10_000 });
}

export function useIntakeRules() {
  return useQuery(apiQueryOptions(calls.intake.listIntakeRules));
}

export function useIntakeArrivals(page: number) {
  return useQuery({
    ...apiQueryOptions(calls.intake.listIntakeArrivals, { query: { page, quantity: 20 } }),
    refetchInterval: 10_000,
  });
}

/** The dry run, asked for by a button (never on its own). */
export function useDryRun(enabled: boolean) {
  return useQuery({ ...apiQueryOptions(calls.intake.dryRunIntakeRules, { query: {} }), enabled });
}

/** The categories, people and groups the forms choose from. */
export function useCategoryChoices() {
  return useQuery(apiQueryOptions(calls.category.fileCategories, { query: {} }));
}

/** The active workflows a rule may start. */
export function useWorkflowChoices() {
  return useQuery(apiQueryOptions(calls.workflow.workflows));
}

export function usePeopleChoices() {
  return useQuery({ ...apiQueryOptions(calls.category.grantees), select: (g) => g.users });
}

/** The groups a source or rule may leave files for (the same call as the people). */
export function useGroupChoices() {
  return useQuery({ ...apiQueryOptions(calls.category.grantees), select: (g) => g.groups });
}

function useInvalidate(...keys: string[][]) {
  const client = useQueryClient();
  return () => {
    for (const queryKey of keys) void client.invalidateQueries({ queryKey });
  };
}

export function useSaveSource() {
  const invalidate = useInvalidate(SOURCES);
  return useMutation({
    mutationFn: ({ id, body }: { id: number | null; body: TIntakeSourceInput }) =>
      id === null
        ? callApi(calls.intake.createIntakeSource, { body })
        : callApi(calls.intake.updateIntakeSource, { params: { id }, body }),
    onSuccess: invalidate,
  });
}

export function useDeleteSource() {
  const invalidate = useInvalidate(SOURCES, ARRIVALS, RULES);
  return useMutation({
    mutationFn: (id: number) => callApi(calls.intake.deleteIntakeSource, { params: { id } }),
    onSuccess: invalidate,
  });
}

export function useSaveRule() {
  const invalidate = useInvalidate(RULES, DRY_RUN);
  return useMutation({
    mutationFn: ({ id, body }: { id: number | null; body: TIntakeRuleInput }) =>
      id === null
        ? callApi(calls.intake.createIntakeRule, { body })
        : callApi(calls.intake.updateIntakeRule, { params: { id }, body }),
    onSuccess: invalidate,
  });
}

export function useDeleteRule() {
  const invalidate = useInvalidate(RULES, DRY_RUN);
  return useMutation({
    mutationFn: (id: number) => callApi(calls.intake.deleteIntakeRule, { params: { id } }),
    onSuccess: invalidate,
  });
}

export function useReorderRules() {
  const invalidate = useInvalidate(RULES, DRY_RUN);
  return useMutation({
    mutationFn: (ids: number[]) => callApi(calls.intake.reorderIntakeRules, { body: { ids } }),
    onSuccess: invalidate,
  });
}

export function useRetryArrival() {
  const invalidate = useInvalidate(ARRIVALS, SOURCES);
  return useMutation({
    mutationFn: (id: number) => callApi(calls.intake.retryIntakeArrival, { params: { id } }),
    onSuccess: invalidate,
  });
}

/** A category's metadata fields in order (null: none chosen yet), for a rule's values. */
export function useCategoryFields(categoryId: number | null) {
  return useQuery({
    ...apiQueryOptions(calls.category.folderMeta, { params: { id: categoryId ?? 0 } }),
    enabled: categoryId !== null,
  });
}

/** A category's tags (null: none chosen yet), for a rule's tags. */
export function useCategoryTags(categoryId: number | null) {
  return useQuery({
    ...apiQueryOptions(calls.category.relatedTags, { params: { id: categoryId ?? 0 } }),
    enabled: categoryId !== null,
  });
}
