import { calls } from '@quire/contract/calls';
import type { QueryClient } from '@tanstack/react-query';
import { brandingEntry } from '../../../lib/branding';

/** After the company changes: its details and the branding every page shows. */
export function invalidateCompany(queryClient: QueryClient) {
  return Promise.all(
    [calls.setup.companyDetails.path, brandingEntry.path].map((path) =>
      queryClient.invalidateQueries({ queryKey: [path] }),
    ),
  );
}
