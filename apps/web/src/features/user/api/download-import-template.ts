import { calls } from '@quire/contract/calls';
import { useMutation } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';
import { saveBlob } from '../../../lib/save-blob';

export const IMPORT_TEMPLATE_FILENAME = 'users-import-template.xlsx';

export const downloadImportTemplate = async () => (await callApi(calls.user.importTemplate)).data;

/** GET /api/users/import-template (an extension of the spec's calls), saved as a file. */
export function useDownloadImportTemplate() {
  return useMutation({
    mutationFn: downloadImportTemplate,
    onSuccess: (blob) => saveBlob(blob, IMPORT_TEMPLATE_FILENAME),
  });
}
