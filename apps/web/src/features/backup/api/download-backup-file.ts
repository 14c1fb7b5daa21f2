import { calls } from '@quire/contract/calls';
import { useMutation } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';
import { saveBlob } from '../../../lib/save-blob';

export interface DownloadInput {
  id: number;
  fileName: string;
  password: string;
  code?: string;
}

export async function downloadBackupFile({ id, fileName, password, code }: DownloadInput) {
  const blob = (
    await callApi(calls.backup.downloadFile, {
      params: { id },
      body: { password, ...(code ? { code } : {}) },
    })
  ).data;
  saveBlob(blob, fileName);
}

/** POST /api/download_backup_file/{id} (password again), saved as the archive's name. */
export function useDownloadBackupFile() {
  return useMutation({ mutationFn: downloadBackupFile });
}
