import type { TAuditActivityQuery } from '@quire/contract';
import { calls } from '@quire/contract/calls';
import { useMutation } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';
import { saveBlob } from '../../../lib/save-blob';

/** GET /api/audits/export: the filtered trail as .xlsx, saved by the browser. */
export function useExportActivity() {
  return useMutation({
    mutationFn: async (query: Omit<TAuditActivityQuery, 'page' | 'quantity' | 'cursor'>) => {
      const { data } = await callApi(calls.audit.exportActivity, { query });
      saveBlob(data, `audit-trail-${new Date().toISOString().slice(0, 10)}.xlsx`);
    },
  });
}
