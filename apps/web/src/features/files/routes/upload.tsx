import { contract } from '@quire/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useNavigate, useParams } from 'react-router';
import { FileDropZone } from '../../../components/drop-zone';
import { useNotify } from '../../../components/notifications/notification-context';
import { PageHeader } from '../../../components/page-header';
import { UploadList } from '../../../components/upload-list';
import { isAbortError } from '../../../lib/api-error';
import { uploadForm } from '../../../lib/upload';
import { useUploads } from '../../../lib/use-uploads';
import { invalidateFiles } from '../api/file-queries';

/**
 * Upload into a category: drop or choose many files, each with its progress bar and Cancel.
 * When every upload has ended and one went through, on to the unindexed files of the category.
 */
export function UploadPage() {
  const folderId = Number(useParams().id);
  const navigate = useNavigate();
  const notify = useNotify();
  const client = useQueryClient();
  const { items, add, cancel, dismiss } = useUploads((file, { signal, onProgress }) => {
    const form = new FormData();
    form.append('folder_id', String(folderId)); // fields before the file
    form.append('file', file);
    return uploadForm(contract.file.newUpload, form, { signal, onProgress }).catch((error: unknown) => {
      if (!isAbortError(error)) notify.notifyFailure('Failed to upload file', error);
      throw error;
    });
  });
  const moved = useRef(false);
  useEffect(() => {
    if (moved.current || items.length === 0) return;
    if (items.some((i) => i.status === 'uploading')) return;
    if (!items.some((i) => i.status === 'done')) return;
    moved.current = true;
    void invalidateFiles(client);
    navigate('/unindexed-files', { state: { categoryId: folderId } });
  }, [items, client, folderId, navigate]);

  return (
    <>
      <PageHeader title="Upload files">
        Files go into the category unindexed; you give their values next.
      </PageHeader>
      <FileDropZone label="Drop files here" onFiles={add} />
      <UploadList items={items} onCancel={cancel} onDismiss={dismiss} />
    </>
  );
}
