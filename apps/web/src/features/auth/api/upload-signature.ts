import { calls } from '@quire/contract/calls';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { uploadForm } from '../../../lib/upload';

/** POST /api/upload-user-signature: multipart field `file` (PNG or JPEG). */
export const uploadSignature = async (file: File) => {
  const form = new FormData();
  form.append('file', file, file.name);
  return await uploadForm(calls.user.uploadSignature, form);
};

export function useUploadSignature() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: [calls.user.uploadSignature.path],
    mutationFn: uploadSignature,
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: [calls.user.signature.path] });
    },
  });
}
