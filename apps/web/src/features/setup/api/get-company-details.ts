import { calls } from '@quire/contract/calls';
import { useQuery } from '@tanstack/react-query';
import { apiQueryOptions } from '../../../lib/api-client';

export const companyDetailsQuery = () => apiQueryOptions(calls.setup.companyDetails);

/** GET /api/company_details. */
export function useCompanyDetails() {
  return useQuery(companyDetailsQuery());
}
