import { contract } from '@quire/contract';
import type { QueryClient } from '@tanstack/react-query';
import { brandingEntry } from '../../../lib/branding';

/** After the company changes: its details and the branding every page shows. */
export function invalidateCompany(queryClient: QueryClient) {
  return Promise.all(
    [contract.setup.companyDetails.path, brandingEntry.path].map((path) =>
      queryClient.invalidateQueries({ queryKey: [path] }),
    ),
  );
}
