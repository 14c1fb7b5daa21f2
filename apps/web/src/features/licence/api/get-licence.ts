import { contract } from '@quire/contract';
import { useQuery } from '@tanstack/react-query';
import { apiQueryOptions } from '../../../lib/api-client';

export const licenceQuery = () => apiQueryOptions(contract.licence.state);

/** GET /api/controlpanel/license-management. */
export function useLicence() {
  return useQuery(licenceQuery());
}
