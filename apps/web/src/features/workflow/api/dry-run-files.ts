import { calls } from '@quire/contract/calls';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiQueryOptions } from '../../../lib/api-client';

/** GET /api/workflow/dry_run/files: files to try the workflow on. */
export function useDryRunFiles(workflowId: number, search: string) {
  return useQuery({
    ...apiQueryOptions(calls.workflow.dryRunFiles, {
      query: { workflow_id: workflowId, ...(search ? { search } : {}) },
    }),
    placeholderData: keepPreviousData,
  });
}
