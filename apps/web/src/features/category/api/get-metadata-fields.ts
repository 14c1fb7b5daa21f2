import { calls } from '@quire/contract/calls';
import { useQuery } from '@tanstack/react-query';
import { apiQueryOptions } from '../../../lib/api-client';

export const metadataFieldsQuery = () => apiQueryOptions(calls.metadata.userFields);

/** GET /api/user_fields: the metadata fields a category can ask for. */
export function useMetadataFields() {
  return useQuery(metadataFieldsQuery());
}
