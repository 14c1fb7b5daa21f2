import type { TRetentionRuleInput } from '@quire/contract';
import { calls } from '@quire/contract/calls';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiQueryOptions, callApi, queryKeyFor } from '../../../lib/api-client';

// Retention rules (File Control): the list, and a category's rule set or removed. Setting or
// removing one changes the list and what every category below it inherits.

export function useRetentionRules() {
  return useQuery(apiQueryOptions(calls.retention.listRetentionRules));
}

/** The categories, date fields and groups the rule and hold forms choose from, as a select's options. */
export function useCategoryOptions() {
  return useQuery({
    ...apiQueryOptions(calls.category.fileCategories, { query: {} }),
    select: (categories) => categories.map((c) => ({ value: c.id, label: c.path })),
  });
}

export function useDateFieldOptions() {
  return useQuery({
    ...apiQueryOptions(calls.metadata.userFields),
    select: (fields) => fields.filter((f) => f.type === 'date').map((f) => ({ value: f.id, label: f.name })),
  });
}

export function useGroupOptions() {
  return useQuery({
    ...apiQueryOptions(calls.category.grantees),
    select: (g) => g.groups.map((group) => ({ value: group.id, label: group.name })),
  });
}

function useInvalidateRules() {
  const client = useQueryClient();
  return () =>
    client.invalidateQueries({ queryKey: queryKeyFor(calls.retention.listRetentionRules).slice(0, 1) });
}

export function useSetRetentionRule() {
  const invalidate = useInvalidateRules();
  return useMutation({
    mutationFn: ({ categoryId, body }: { categoryId: number; body: TRetentionRuleInput }) =>
      callApi(calls.retention.setRetentionRule, { params: { id: categoryId }, body }),
    onSuccess: () => void invalidate(),
  });
}

export function useDeleteRetentionRule() {
  const invalidate = useInvalidateRules();
  return useMutation({
    mutationFn: (categoryId: number) =>
      callApi(calls.retention.deleteRetentionRule, { params: { id: categoryId } }),
    onSuccess: () => void invalidate(),
  });
}
