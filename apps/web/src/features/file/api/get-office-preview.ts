import { calls } from '@quire/contract/calls';
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { apiQueryOptions } from '../../../lib/api-client';
import { ApiError } from '../../../lib/api-error';

/**
 * GET /api/previews/office/{id}: a DOCX or XLSX as HTML made on the server. While it is being
 * made (404 saying so), asked again every 3 s, up to a minute; asked again when the file's
 * current version is not the one previewed.
 */
export function useOfficePreview(fileId: number, versionId: number) {
  const query = useQuery({
    ...apiQueryOptions(calls.preview.officePreview, { params: { id: fileId } }),
    retry: (count, error) =>
      error instanceof ApiError && error.status === 404 && /being made/.test(error.message) && count < 20,
    retryDelay: 3000,
  });
  const shown = query.data?.version_id;
  const { refetch } = query;
  useEffect(() => {
    if (shown !== undefined && shown !== versionId) void refetch();
  }, [shown, versionId, refetch]);
  return query;
}
