import { contract } from '@quire/contract';
import { useQuery } from '@tanstack/react-query';
import { apiQueryOptions } from '../../../lib/api-client';

export const companyDetailsQuery = () => apiQueryOptions(contract.setup.companyDetails);

/** GET /api/company_details. */
export function useCompanyDetails() {
  return useQuery(companyDetailsQuery());
}
