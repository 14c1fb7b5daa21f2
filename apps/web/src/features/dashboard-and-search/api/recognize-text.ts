import { calls } from '@quire/contract/calls';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callApi, queryKeyFor } from '../../../lib/api-client';

/** POST /api/search/text-recognition/{id}: recognise the file's text again; shows the pending status at once. */
export function useRecognizeText(fileId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => callApi(calls.dashboardAndSearch.recognizeText, { params: { id: fileId } }),
    onSuccess: (result) =>
      client.setQueryData(
        queryKeyFor(calls.dashboardAndSearch.textStatus, { params: { id: fileId } }),
        result.data,
      ),
  });
}
