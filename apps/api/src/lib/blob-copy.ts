import type { BlobStore } from './blob-store.js';

// Copies every blob of one store into another (pnpm blobs:migrate: the folder store to S3, or
// back). Content is streamed, put into the target, and kept only when the sha256 the target
// computed while storing it is the blob's id: each copy is verified as it is made. Blobs the
// target has already are skipped, so a copy that was interrupted (Ctrl-C, a crash, the
// service away) goes on where it stopped when run again; a put cut off half way leaves only
// a temp file or object, which the target's sweepTemp removes.

interface BlobCopyProgress {
  /** Blobs copied (and verified) by this run. */
  copied: number;
  copiedBytes: number;
  /** Blobs the target had already. */
  skipped: number;
  /** Blobs whose content does not hash to their id, or that could not be read or stored. */
  failed: Array<{ id: string; reason: string }>;
}

export async function copyBlobs(
  from: BlobStore,
  to: BlobStore,
  options: { onProgress?: (p: BlobCopyProgress) => void; signal?: AbortSignal } = {},
): Promise<BlobCopyProgress> {
  const progress: BlobCopyProgress = { copied: 0, copiedBytes: 0, skipped: 0, failed: [] };
  for await (const { id } of from.list()) {
    if (options.signal?.aborted) break;
    if (await to.exists(id)) {
      progress.skipped++;
    } else {
      try {
        const stored = await to.put(await from.read(id));
        if (stored.id === id) {
          progress.copied++;
          progress.copiedBytes += stored.size;
        } else {
          // The source's bytes are not what their address says. What was stored is named by
          // its own hash: it may be a blob the target holds rightly, so it stays (the blob
          // collector removes it within a day when no row names it).
          progress.failed.push({ id, reason: `its content has sha256 ${stored.id}` });
        }
      } catch (err) {
        progress.failed.push({ id, reason: (err as Error).message });
      }
    }
    options.onProgress?.(progress);
  }
  return progress;
}
