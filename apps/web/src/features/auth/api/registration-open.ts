import type { contract } from '@quire/contract';
import { useEffect, useState } from 'react';
import { callApi, endpointRef } from '../../../lib/api-client';

/** GET /account/registration: answered 200 to anyone, so the sign-in page makes no refused call. */
export const registrationStateEntry = endpointRef<typeof contract.auth.registrationState>({
  method: 'GET',
  path: '/account/registration',
});

/**
 * Whether the company lets people create their own account: true once the server says so.
 * Until then, and on any failure, false: "Create an account" is offered only where it works.
 * A plain call rather than a query: the sign-in page is in the first load, which does without
 * TanStack Query's useQuery (3 kB).
 */
export function useRegistrationOpen(): boolean {
  const [open, setOpen] = useState(false);
  useEffect(() => {
    const controller = new AbortController();
    callApi(registrationStateEntry, { signal: controller.signal }).then(
      (answer) => setOpen(answer.data.open),
      () => setOpen(false),
    );
    return () => controller.abort();
  }, []);
  return open;
}
