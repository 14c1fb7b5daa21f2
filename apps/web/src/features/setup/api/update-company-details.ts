import type { Body, contract } from '@quire/contract';
import { calls } from '@quire/contract/calls';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';
import { invalidateCompany } from '../lib/invalidate-company';

export type CompanyDetailsInput = Body<typeof contract.setup.updateCompanyDetails>;

export const updateCompanyDetails = async (body: CompanyDetailsInput) =>
  (await callApi(calls.setup.updateCompanyDetails, { body })).data;

/** PUT /api/company_details (an extension of the spec's calls). */
export function useUpdateCompanyDetails() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: updateCompanyDetails, onSuccess: () => invalidateCompany(queryClient) });
}
