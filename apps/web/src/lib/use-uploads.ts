import { useCallback, useEffect, useRef, useState } from 'react';
import { isAbortError } from './api-error';
import { errorMessage } from './error-message';
import type { UploadProgress } from './upload';

export type UploadStatus = 'uploading' | 'done' | 'failed' | 'cancelled';

export interface UploadItem {
  id: number;
  file: File;
  status: UploadStatus;
  /** 0 to 1; null while the size is not known yet. */
  progress: number | null;
  /** Why it failed, in words. */
  error?: string;
}

/** Sends one file: gets the signal that cancels it and a progress callback. */
export type StartUpload = (
  file: File,
  options: { signal: AbortSignal; onProgress: (progress: UploadProgress) => void },
) => Promise<unknown>;

/**
 * A list of uploads in flight: `add(files)` starts one upload per file, each with its own
 * progress and `cancel(id)`. Leaving the page cancels what is still going.
 */
export function useUploads(start: StartUpload, { onDone }: { onDone?: (file: File) => void } = {}) {
  const [items, setItems] = useState<UploadItem[]>([]);
  const controllers = useRef(new Map<number, AbortController>());
  const nextId = useRef(1);
  const startRef = useRef(start);
  startRef.current = start;
  const onDoneRef = useRef(onDone);
  onDoneRef.current = onDone;

  const update = useCallback((id: number, change: Partial<UploadItem>) => {
    setItems((list) => list.map((item) => (item.id === id ? { ...item, ...change } : item)));
  }, []);

  const add = useCallback(
    (files: File[]) => {
      for (const file of files) {
        const id = nextId.current++;
        const controller = new AbortController();
        controllers.current.set(id, controller);
        setItems((list) => [...list, { id, file, status: 'uploading', progress: null }]);
        startRef
          .current(file, {
            signal: controller.signal,
            onProgress: ({ loaded, total }) => update(id, { progress: total > 0 ? loaded / total : null }),
          })
          .then(
            () => {
              update(id, { status: 'done', progress: 1 });
              onDoneRef.current?.(file);
            },
            (error: unknown) =>
              update(
                id,
                isAbortError(error)
                  ? { status: 'cancelled' }
                  : { status: 'failed', error: errorMessage(error) },
              ),
          )
          .finally(() => controllers.current.delete(id));
      }
    },
    [update],
  );

  const cancel = useCallback((id: number) => controllers.current.get(id)?.abort(), []);
  const dismiss = useCallback((id: number) => setItems((list) => list.filter((item) => item.id !== id)), []);

  useEffect(() => {
    const running = controllers.current;
    return () => {
      for (const controller of running.values()) controller.abort();
    };
  }, []);

  return { items, add, cancel, dismiss, busy: items.some((item) => item.status === 'uploading') };
}
