import type { Contract } from '@quire/contract';
import { calls } from '@quire/contract/calls';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';
import { invalidateCompany } from '../lib/invalidate-company';
import type { BrandingImage } from './upload-image';

/** DELETE /api/company/logo or /api/company/background (extensions of the spec's calls). */
export const removeImage = async (what: BrandingImage) =>
  (
    await callApi<Contract['setup']['removeLogo' | 'removeBackground']>(
      what === 'logo' ? calls.setup.removeLogo : calls.setup.removeBackground,
    )
  ).data;

export function useRemoveImage() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: removeImage, onSuccess: () => invalidateCompany(queryClient) });
}
