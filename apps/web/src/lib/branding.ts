// The company's name, logo and login background (GET /api/get_logo_and_expiry_date), for the
// sign-in screen and the signed-in frame. Zod-free (the sign-in page is in the first chunk).
import type { contract } from '@quire/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callApi, endpointRef, queryKeyFor } from './api-client';

export const brandingEntry = endpointRef<typeof contract.setup.getLogoAndExpiryDate>({
  method: 'GET',
  path: '/api/get_logo_and_expiry_date',
});

export const brandingQuery = () =>
  queryOptions({
    queryKey: queryKeyFor(brandingEntry),
    queryFn: async ({ signal }) => (await callApi(brandingEntry, { signal })).data,
    // The branding changes seldom; a failure only means the plain Quire mark is shown.
    staleTime: 5 * 60_000,
    retry: false,
  });

/** The branding, or undefined while it loads or when it cannot be had. */
export function useBranding() {
  return useQuery(brandingQuery()).data;
}
