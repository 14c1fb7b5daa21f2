import { calls } from '@quire/contract/calls';
import { useMutation } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';
import { saveBlob } from '../../../lib/save-blob';

export const TEMPLATE_FILENAME = 'value-list-template.xlsx';

export const downloadTemplate = async () => (await callApi(calls.valueList.importTemplate)).data;

/** GET /api/valuelist-template (an extension of the spec's calls), saved as a file. */
export function useDownloadTemplate() {
  return useMutation({
    mutationFn: downloadTemplate,
    onSuccess: (blob) => saveBlob(blob, TEMPLATE_FILENAME),
  });
}
