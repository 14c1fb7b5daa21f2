import { contract } from '@quire/contract';
import { useQuery } from '@tanstack/react-query';
import { apiQueryOptions } from '../../../lib/api-client';

export const workflowQuery = (id: number) =>
  apiQueryOptions(contract.workflow.viewWorkflow, { params: { id } });

/** GET /api/view_workflow/{id}: the workflow, its steps in order and every step's details. */
export function useWorkflow(id: number) {
  return useQuery(workflowQuery(id));
}
