import { calls } from '@quire/contract/calls';
import { useQueryClient } from '@tanstack/react-query';
import { useNotify } from '../../../components/notifications/notification-context';
import { isAbortError } from '../../../lib/api-error';
import { invalidateFiles } from '../../../lib/invalidate-files';
import { uploadForm } from '../../../lib/upload';
import { useUploads } from '../../../lib/use-uploads';

/**
 * Uploads into one category (POST /api/new-upload, `folder_id` before the file), one request
 * per file with its own progress and Cancel; the file lists are refreshed after each one.
 */
export function useCategoryUploads(folderId: number) {
  const notify = useNotify();
  const client = useQueryClient();
  return useUploads(
    (file, { signal, onProgress }) => {
      const form = new FormData();
      form.append('folder_id', String(folderId)); // fields before the file
      form.append('file', file);
      return uploadForm(calls.file.newUpload, form, { signal, onProgress }).catch((error: unknown) => {
        if (!isAbortError(error)) notify.notifyFailure('Failed to upload file', error);
        throw error;
      });
    },
    { onDone: () => void invalidateFiles(client) },
  );
}
