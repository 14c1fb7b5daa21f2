import { calls } from '@quire/contract/calls';
import { useQuery } from '@tanstack/react-query';
import { apiQueryOptions } from '../../../lib/api-client';

/** GET /api/folders/workflow: the categories, each with the workflow that serves it. */
export function useFoldersWithWorkflows() {
  return useQuery(apiQueryOptions(calls.category.foldersWorkflow));
}
