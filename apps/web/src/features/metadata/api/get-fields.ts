import { calls } from '@quire/contract/calls';
import { useQuery } from '@tanstack/react-query';
import { apiQueryOptions } from '../../../lib/api-client';

export const fieldsQuery = () => apiQueryOptions(calls.metadata.userFields);

/** GET /api/user_fields: every metadata field in order, with where it is used. */
export function useFields() {
  return useQuery(fieldsQuery());
}
