import type { contract } from '@quire/contract';
import { useEffect, useState } from 'react';
import { callApi, endpointRef } from '../../../lib/api-client';

/** POST /account/email/is-valid, as a reference: the sign-in page asks it too (no schemas). */
export const emailIsValidEntry = endpointRef<typeof contract.auth.emailIsValid>({
  method: 'POST',
  path: '/account/email/is-valid',
});

/** A neutral address that no account uses: asking about it tells whether registration is open. */
export const REGISTRATION_PROBE_EMAIL = 'probe@example.invalid';

/**
 * Whether the company lets people create their own account: true once the probe is answered
 * (a 403 says it is closed). Until then, and on any other failure, false: "Create an account"
 * is offered only where it works. A plain call rather than a query: the sign-in page is in
 * the first load, which does without TanStack Query's useQuery (3 kB).
 */
export function useRegistrationOpen(): boolean {
  const [open, setOpen] = useState(false);
  useEffect(() => {
    const controller = new AbortController();
    callApi(emailIsValidEntry, { body: { email: REGISTRATION_PROBE_EMAIL }, signal: controller.signal }).then(
      () => setOpen(true),
      () => setOpen(false),
    );
    return () => controller.abort();
  }, []);
  return open;
}
