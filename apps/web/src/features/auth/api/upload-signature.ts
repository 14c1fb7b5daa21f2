import { contract } from '@quire/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { uploadForm } from '../../../lib/upload';

/** POST /api/upload-user-signature: multipart field `file` (PNG or JPEG). */
export const uploadSignature = async (file: File) => {
  const form = new FormData();
  form.append('file', file, file.name);
  return await uploadForm(contract.user.uploadSignature, form);
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
