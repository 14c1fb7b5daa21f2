import { calls } from '@quire/contract/calls';
import { useQuery } from '@tanstack/react-query';
import { apiQueryOptions } from '../../../lib/api-client';

export const licenceQuery = () => apiQueryOptions(calls.licence.state);

/** GET /api/controlpanel/license-management. */
export function useLicence() {
  return useQuery(licenceQuery());
}
