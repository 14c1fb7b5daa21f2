import type { Contract } from '@quire/contract';
import { calls } from '@quire/contract/calls';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { uploadForm } from '../../../lib/upload';
import { invalidateCompany } from '../lib/invalidate-company';

export type BrandingImage = 'logo' | 'background';

/** POST /api/controlpanel/upload-logo or /upload-background (multipart field `file`). */
export const uploadImage = async ({ what, file }: { what: BrandingImage; file: File }) => {
  const form = new FormData();
  form.append('file', file);
  const entry = what === 'logo' ? calls.setup.uploadLogo : calls.setup.uploadBackground;
  return (await uploadForm<Contract['setup']['uploadLogo' | 'uploadBackground']>(entry, form)).data;
};

export function useUploadImage() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: uploadImage, onSuccess: () => invalidateCompany(queryClient) });
}
