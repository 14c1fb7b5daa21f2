import { calls } from '@quire/contract/calls';
import { useQuery } from '@tanstack/react-query';
import { apiQueryOptions } from '../../../lib/api-client';

export const backupFilesQuery = () => apiQueryOptions(calls.backup.files);

/** GET /api/backup-files: archives that can be downloaded or restored. */
export function useBackupFiles() {
  return useQuery(backupFilesQuery());
}
