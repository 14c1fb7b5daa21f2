import { calls } from '@quire/contract/calls';
import { useQuery } from '@tanstack/react-query';
import { apiQueryOptions } from '../../../lib/api-client';

/** GET /api/workflows: the active workflows a file can be started on. */
export function useActiveWorkflows() {
  return useQuery(apiQueryOptions(calls.workflow.workflows));
}
