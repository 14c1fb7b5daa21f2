import { contract } from '@quire/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callApiForm } from '../../../lib/api-client';

/** POST /api/upload-user-signature: multipart field `file` (PNG or JPEG). */
export const uploadSignature = async (file: File) => {
  const form = new FormData();
  form.append('file', file, file.name);
  return await callApiForm(contract.user.uploadSignature, form);
};

export function useUploadSignature() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: [contract.user.uploadSignature.path],
    mutationFn: uploadSignature,
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: [contract.user.signature.path] });
    },
  });
}
