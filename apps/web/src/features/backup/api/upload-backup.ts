import { calls } from '@quire/contract/calls';
import { useQueryClient } from '@tanstack/react-query';
import type { UploadProgress } from '../../../lib/upload';
import { uploadForm } from '../../../lib/upload';
import { invalidateBackups } from './invalidate';

export interface UploadBackupInput {
  file: File;
  password: string;
  code?: string;
  signal?: AbortSignal;
  onProgress?: (p: UploadProgress) => void;
}

/** POST /api/upload_backup: fields first, then the archive (XHR, with progress and cancel). */
export function useUploadBackup() {
  const queryClient = useQueryClient();
  return async ({ file, password, code, signal, onProgress }: UploadBackupInput) => {
    const form = new FormData();
    form.append('password', password);
    if (code) form.append('code', code);
    form.append('file', file, file.name);
    const result = await uploadForm(calls.backup.upload, form, { signal, onProgress });
    await invalidateBackups(queryClient);
    return result.data;
  };
}
