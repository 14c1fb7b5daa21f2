// The company's name, logo and login background (GET /api/get_logo_and_expiry_date), for the
// sign-in screen and the signed-in frame. Zod-free and without TanStack Query's useQuery: the
// sign-in page is in the first load (its budget is checked at build). The signed-in frame reads
// it through a query (branding-query.ts), so that saving the company details refreshes it.
import type { contract, TBranding } from '@quire/contract';
import { useEffect, useState } from 'react';
import { callApi, endpointRef } from './api-client';

export const brandingEntry = endpointRef<typeof contract.setup.getLogoAndExpiryDate>({
  method: 'GET',
  path: '/api/get_logo_and_expiry_date',
});

/**
 * The branding for a public page, once fetched: undefined while it loads or when it cannot be
 * had (a failure only means the plain Quire mark is shown).
 */
export function usePublicBranding(): TBranding | undefined {
  const [branding, setBranding] = useState<TBranding>();
  useEffect(() => {
    const controller = new AbortController();
    callApi(brandingEntry, { signal: controller.signal }).then(
      (answer) => setBranding(answer.data),
      () => undefined,
    );
    return () => controller.abort();
  }, []);
  return branding;
}
