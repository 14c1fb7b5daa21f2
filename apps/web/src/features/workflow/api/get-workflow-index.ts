import type { contract, Query } from '@quire/contract';
import { calls } from '@quire/contract/calls';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiQueryOptions } from '../../../lib/api-client';

export type WorkflowIndexQuery = NonNullable<Query<typeof contract.workflow.workflowIndex>>;

export const workflowIndexQuery = (query: WorkflowIndexQuery) =>
  apiQueryOptions(calls.workflow.workflowIndex, { query });

/** GET /api/workflow/index: every workflow, a page at a time. */
export function useWorkflowIndex(query: WorkflowIndexQuery) {
  return useQuery({ ...workflowIndexQuery(query), placeholderData: keepPreviousData });
}
