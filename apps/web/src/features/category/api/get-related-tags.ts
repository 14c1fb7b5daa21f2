import { contract } from '@quire/contract';
import { useQuery } from '@tanstack/react-query';
import { apiQueryOptions } from '../../../lib/api-client';

export const relatedTagsQuery = (id: number) =>
  apiQueryOptions(contract.category.relatedTags, { params: { id } });

/** GET /api/related-tags/{id}: a category's related tags. */
export function useRelatedTags(id: number | null) {
  return useQuery({ ...relatedTagsQuery(id ?? 0), enabled: id !== null });
}
