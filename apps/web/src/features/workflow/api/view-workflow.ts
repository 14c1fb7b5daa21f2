import { calls } from '@quire/contract/calls';
import { useQuery } from '@tanstack/react-query';
import { apiQueryOptions } from '../../../lib/api-client';

export const workflowQuery = (id: number) => apiQueryOptions(calls.workflow.viewWorkflow, { params: { id } });

/** GET /api/view_workflow/{id}: the workflow, its steps in order and every step's details. */
export function useWorkflow(id: number) {
  return useQuery(workflowQuery(id));
}
