import { contract } from '@quire/contract';
import { useQuery } from '@tanstack/react-query';
import { apiQueryOptions } from '../../../lib/api-client';

/** GET /api/fileCategories?right=upload: the categories the caller may upload into, with their path. */
export function useUploadCategories(enabled = true) {
  return useQuery({
    ...apiQueryOptions(contract.category.fileCategories, { query: { right: 'upload' } }),
    enabled,
  });
}
