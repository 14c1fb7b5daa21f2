import type { contract, Query } from '@quire/contract';
import { calls } from '@quire/contract/calls';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiQueryOptions } from '../../../lib/api-client';

export type AssignedQuery = NonNullable<Query<typeof contract.file.assignedFiles>>;

export const assignedFilesQuery = (query: AssignedQuery) =>
  apiQueryOptions(calls.file.assignedFiles, { query });

/** GET /api/assigned-files: the files waiting on me, soonest due first (also the dashboard's table). */
export function useAssignedFiles(query: AssignedQuery) {
  return useQuery({ ...assignedFilesQuery(query), placeholderData: keepPreviousData });
}
