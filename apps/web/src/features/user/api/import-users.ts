import { calls } from '@quire/contract/calls';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { uploadForm } from '../../../lib/upload';
import { invalidateUsers } from '../lib/invalidate-users';

export const importUsers = async ({ file, dryRun }: { file: File; dryRun: boolean }) => {
  const form = new FormData();
  form.append('dry_run', dryRun ? 'true' : 'false');
  form.append('file', file);
  return (await uploadForm(calls.user.importUsers, form)).data;
};

/** POST /api/import_user (multipart): `dryRun` previews the rows and their errors. */
export function useImportUsers() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: importUsers,
    onSuccess: (data) => (data.dry_run ? undefined : invalidateUsers(queryClient)),
  });
}
