import { calls } from '@quire/contract/calls';
import { type QueryClient, useQuery } from '@tanstack/react-query';
import { apiQueryOptions } from '../../../lib/api-client';

/** GET /api/saved-views: the person's saved views, in their order. */
export const savedViewsQuery = () => apiQueryOptions(calls.savedView.listSavedViews);

export function useSavedViews() {
  return useQuery(savedViewsQuery());
}

/** After a change: the search page's list and the dashboard's pinned views. */
export const refreshSavedViews = (client: QueryClient) =>
  client.invalidateQueries({ queryKey: savedViewsQuery().queryKey });
