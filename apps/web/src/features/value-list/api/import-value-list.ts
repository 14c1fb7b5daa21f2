import { calls } from '@quire/contract/calls';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { uploadForm } from '../../../lib/upload';
import { invalidateValueLists } from '../lib/invalidate-value-lists';

export interface ImportValueListInput {
  file: File;
  dryRun: boolean;
  /** The list whose items the file replaces; absent: a new list. */
  id?: number;
  name?: string;
  description?: string;
}

/**
 * POST /api/create_value_list_from_excel or PUT /api/edit_value_list_from_excel/{id}
 * (multipart, fields before the file): `dryRun` previews the rows and their problems.
 */
export const importValueList = async ({ file, dryRun, id, name, description }: ImportValueListInput) => {
  const form = new FormData();
  if (name) form.append('name', name);
  if (description) form.append('description', description);
  form.append('dry_run', dryRun ? 'true' : 'false');
  form.append('file', file);
  return id === undefined
    ? (await uploadForm(calls.valueList.createValueListFromExcel, form)).data
    : (await uploadForm(calls.valueList.editValueListFromExcel, form, { params: { id } })).data;
};

export function useImportValueList() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: importValueList,
    onSuccess: (data) => (data.dry_run ? undefined : invalidateValueLists(queryClient)),
  });
}
