import { calls } from '@quire/contract/calls';
import { useQuery } from '@tanstack/react-query';
import { apiQueryOptions } from '../../../lib/api-client';

/** GET /api/fileCategories?right=upload: the categories the caller may upload into, with their path. */
export function useUploadCategories(enabled = true) {
  return useQuery({
    ...apiQueryOptions(calls.category.fileCategories, { query: { right: 'upload' } }),
    enabled,
  });
}
