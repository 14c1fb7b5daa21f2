import { contract } from '@quire/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiQueryOptions } from '../../../lib/api-client';

/** GET /api/workflow/dry_run/files: files to try the workflow on. */
export function useDryRunFiles(workflowId: number, search: string) {
  return useQuery({
    ...apiQueryOptions(contract.workflow.dryRunFiles, {
      query: { workflow_id: workflowId, ...(search ? { search } : {}) },
    }),
    placeholderData: keepPreviousData,
  });
}
