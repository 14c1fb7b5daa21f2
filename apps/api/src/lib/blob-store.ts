import { randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { access, type FileHandle, mkdir, open, readdir, rename, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { ContentMeter, type PutOptions, type StoredBlob, WRITE_BUFFER } from './content-meter.js';
import { readFileChunks } from './file-chunks.js';

/** Bytes `start` to `end` of a blob, both included (as in an HTTP Range header). */
export interface ByteRange {
  start: number;
  end: number;
}

/**
 * Content-addressed file store: a blob lives at `<dir>/ab/cd/<sha256>`. Content is streamed
 * to a temp file while hashed, fsynced, then renamed into place, so a blob is either whole
 * or absent. The store never deletes on its own: callers delete a blob once no row refers
 * to it (the blob collector job). Every method is async: lib/s3-blob-store.ts implements the
 * same interface on an S3-compatible bucket (STORAGE=s3).
 */
export interface BlobStore {
  put(content: Readable | Buffer, options?: PutOptions): Promise<StoredBlob>;
  /**
   * Stores content that comes as chunks, writing each before it asks for the next: the
   * producer may reuse its buffers (see lib/file-chunks.ts). For work that moves gigabytes.
   */
  putChunks(source: AsyncIterable<Uint8Array>): Promise<StoredBlob>;
  /** The content, or the bytes of `range`. */
  read(id: string, range?: ByteRange): Promise<Readable>;
  /**
   * The content (or the bytes of `range`) as chunks of reused buffers of `chunkBytes` (default
   * 4 MiB), each valid until the next is asked for.
   */
  readChunks(id: string, range?: ByteRange, chunkBytes?: number): AsyncIterable<Buffer>;
  exists(id: string): Promise<boolean>;
  size(id: string): Promise<number>;
  /**
   * Deletes a blob's content. With `unlessTouchedAfter`, content that a put touched after
   * that time (an upload of the same bytes, its row not yet saved) is kept.
   */
  remove(id: string, options?: { unlessTouchedAfter?: Date }): Promise<void>;
  /**
   * Deletes temp files left by a killed server: those of a process of this machine that is no
   * longer running, and any older than `olderThanMs` (default 1 h).
   */
  sweepTemp(olderThanMs?: number): Promise<void>;
  /**
   * Every stored blob (temp files aside) with the time a put last wrote or touched it: for
   * the sweep of content that no row names (lib/blob-collector.ts).
   */
  list(): AsyncIterable<{ id: string; touchedAt: Date }>;
  /**
   * A store behind the network (S3) says whether its service answers now (for the health
   * report); a folder store has none (its disk's free space tells).
   */
  reachable?(): Promise<boolean>;
}

/** The store could not be reached (an S3-compatible service away, refusing or failing): nothing was done. */
export class BlobStoreUnavailableError extends Error {
  override name = 'BlobStoreUnavailableError';
  constructor(cause: unknown) {
    super(`The blob store could not be reached: ${(cause as Error)?.message ?? cause}`, { cause });
  }
}

const ID = /^[0-9a-f]{64}$/;

/** Bytes read at a time for a stream (`read`: text extraction, combining into a PDF): fewer
 * round trips to the thread pool than Node's 64 KiB default. Downloads use `readChunks`. */
const READ_BUFFER = 256 * 1024;

// A temp file's name says who writes it: `<host>.<pid>.<uuid>`, so a start can tell the files
// of a killed server (same host, process gone) from those another live server is writing.
const hostTag = os
  .hostname()
  .replace(/[^A-Za-z0-9-]/g, '_')
  .slice(0, 64);
export const TEMP_PREFIX = `${hostTag}.${process.pid}.`;

/** Whether a temp file's name says it was written by a process of this machine that has ended. */
export function writerIsGone(name: string): boolean {
  const [host, pid] = name.split('.');
  if (host !== hostTag || !pid || !/^\d+$/.test(pid)) return false;
  if (Number(pid) === process.pid) return false;
  try {
    process.kill(Number(pid), 0);
    return false;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ESRCH';
  }
}
export const isBlobId = (id: string) => ID.test(id);

/**
 * Writes `source` to `fh` through a ContentMeter, then syncs and closes the file; once the
 * content's hash is known, `whileSyncing(id)` runs beside the sync. One write
 * is in flight at a time, and what comes meanwhile is gathered (up to WRITE_BUFFER bytes) for
 * the next; nothing is written before the head is inspected. A plain loop rather than a stream
 * pipeline: a small upload is one chunk, and the pipeline's Transform, WriteStream and the
 * AbortController it aborts on finishing cost about 0.5 ms of CPU an upload of a few KB
 * (measured in-process against the pipeline this replaced).
 */
async function writeContent(
  fh: FileHandle,
  source: AsyncIterable<Buffer> | Buffer[],
  options: PutOptions,
  whileSyncing: (id: string) => Promise<void>,
): Promise<StoredBlob> {
  const meter = new ContentMeter(options);
  // A refusal ends the reading at once, not after the rest of a large file has come.
  options.admit?.catch((err: unknown) => {
    if (!Array.isArray(source) && isStream(source) && !source.readableEnded) source.destroy(err as Error);
  });
  let batch: Buffer[] = [];
  let batchBytes = 0;
  let writing: Promise<void> | undefined;
  let busy = false;
  const send = async () => {
    const out = batch;
    batch = [];
    batchBytes = 0;
    await writing;
    busy = true;
    writing = writeAll(fh, out).finally(() => {
      busy = false;
    });
  };
  try {
    for await (const chunk of source) {
      const inspecting = meter.take(chunk);
      batch.push(chunk);
      batchBytes += chunk.length;
      if (inspecting) await inspecting;
      // Like a write stream: what has come is written as soon as the disk is free; while it is
      // busy, up to WRITE_BUFFER bytes gather for the next write.
      if (meter.inspected && (!busy || batchBytes >= WRITE_BUFFER)) await send();
    }
    await meter.finish();
    if (batchBytes > 0) await send();
    await writing;
  } catch (err) {
    await writing?.catch(() => {});
    throw err;
  }
  const blob = meter.blob();
  const alongside = whileSyncing(blob.id);
  await fh.sync();
  await Promise.all([fh.close(), alongside]);
  await options.admit;
  return blob;
}

const isStream = (source: AsyncIterable<Buffer>): source is Readable =>
  typeof (source as Readable).destroy === 'function';

/** Writes every byte of `buffers` at the file's position (a short write goes on from where it stopped). */
async function writeAll(fh: FileHandle, buffers: Uint8Array[]): Promise<void> {
  let left = buffers;
  while (left.length) {
    let { bytesWritten } = await fh.writev(left);
    const rest: Uint8Array[] = [];
    for (const b of left) {
      if (bytesWritten >= b.length) bytesWritten -= b.length;
      else {
        rest.push(bytesWritten ? b.subarray(bytesWritten) : b);
        bytesWritten = 0;
      }
    }
    left = rest;
  }
}

export interface BlobStoreOptions {
  /**
   * Opens a temp file for writing (default `fs.promises.open(file, 'w')`): the filesystem
   * boundary, where tests inject a full disk.
   */
  openTemp?: (file: string) => Promise<FileHandle>;
}

export function createBlobStore(dir: string, options: BlobStoreOptions = {}): BlobStore {
  const openTemp = options.openTemp ?? ((file: string) => open(file, 'w'));
  const tmpDir = path.join(dir, 'tmp');
  const pathOf = (id: string) => {
    if (!ID.test(id)) throw new Error(`Not a blob id: ${id}`);
    return path.join(dir, id.slice(0, 2), id.slice(2, 4), id);
  };
  // A blob's folder, made while its content syncs, off the upload's path (in a young store
  // most of the 65,536 folders are missing; the move after finds it there).
  const makeFolder = (id: string) =>
    mkdir(path.dirname(pathOf(id)), { recursive: true }).then(
      () => {},
      () => {}, // the move makes it again, or fails with the reason
    );
  const present = (file: string) =>
    access(file).then(
      () => true,
      () => false,
    );
  /**
   * Writes a temp file with `fill` (which answers the content's hash and size once the file is
   * synced), then moves it to its content address (over the same content when that is there
   * already) and syncs the folder. A throw of `fill` or of the move leaves nothing.
   */
  const store = async (fill: (file: FileHandle) => Promise<StoredBlob>): Promise<StoredBlob> => {
    const tmp = path.join(tmpDir, `${TEMP_PREFIX}${randomUUID()}`);
    // The temp folder is made when it is missing (the first upload), not checked every time.
    const fh = await openTemp(tmp).catch(async (err: NodeJS.ErrnoException) => {
      if (err.code !== 'ENOENT') throw err;
      await mkdir(tmpDir, { recursive: true });
      return openTemp(tmp);
    });
    let blob: StoredBlob;
    try {
      blob = await fill(fh);
    } catch (err) {
      await fh.close().catch(() => {});
      await rm(tmp, { force: true });
      throw err;
    }
    // Moved into place even when the content is there already: the same bytes, now with this
    // put's time, so the blob collector (which may have just found it unreferenced) leaves it
    // for the row this upload is about to save. Its folder is made when the move finds none
    // (`put` has made it already while the content synced; `putChunks` has not).
    const target = pathOf(blob.id);
    try {
      await rename(tmp, target).catch(async (err: NodeJS.ErrnoException) => {
        if (err.code !== 'ENOENT') throw err;
        await mkdir(path.dirname(target), { recursive: true });
        await rename(tmp, target);
      });
    } catch (err) {
      await rm(tmp, { force: true });
      throw err;
    }
    const dirHandle = await open(path.dirname(target), 'r');
    await dirHandle.sync().finally(() => dirHandle.close());
    return blob;
  };

  return {
    put: (content, options = {}) => {
      options.admit?.catch(() => {}); // a refusal that comes before the content is handled below
      return store((fh) =>
        writeContent(fh, Buffer.isBuffer(content) ? [content] : content, options, makeFolder),
      );
    },
    putChunks: (source) =>
      store(async (fh) => {
        const meter = new ContentMeter();
        for await (const chunk of source) {
          // Hashed while the thread pool writes it (both only read the chunk).
          const writing = writeAll(fh, [chunk]);
          meter.take(chunk);
          await writing;
        }
        await fh.sync();
        await fh.close();
        return meter.blob();
      }),
    readChunks: (id, range, chunkBytes) => readFileChunks(pathOf(id), range ?? {}, chunkBytes),
    read: async (id, range) =>
      createReadStream(pathOf(id), {
        highWaterMark: READ_BUFFER,
        ...(range ? { start: range.start, end: range.end } : {}),
      }),
    exists: (id) => present(pathOf(id)),
    size: async (id) => (await stat(pathOf(id))).size,
    async remove(id, options = {}) {
      const file = pathOf(id);
      if (options.unlessTouchedAfter) {
        const info = await stat(file).catch(() => null);
        if (info && info.mtimeMs > options.unlessTouchedAfter.getTime()) return;
      }
      await rm(file, { force: true });
    },
    async *list() {
      const hex2 = /^[0-9a-f]{2}$/;
      const names = async (d: string) => (await readdir(d).catch(() => [] as string[])).sort();
      for (const a of await names(dir)) {
        if (!hex2.test(a)) continue;
        for (const b of await names(path.join(dir, a))) {
          if (!hex2.test(b)) continue;
          for (const id of await names(path.join(dir, a, b))) {
            if (!ID.test(id) || !id.startsWith(a + b)) continue;
            const info = await stat(path.join(dir, a, b, id)).catch(() => null);
            if (info?.isFile()) yield { id, touchedAt: info.mtime };
          }
        }
      }
    },
    async sweepTemp(olderThanMs = 3_600_000) {
      // Young ones only when their writer is gone: another server sharing this folder may be
      // writing them.
      const cutoff = Date.now() - olderThanMs;
      const names = await readdir(tmpDir).catch(() => [] as string[]);
      for (const name of names) {
        const file = path.join(tmpDir, name);
        if (writerIsGone(name)) {
          await rm(file, { force: true });
          continue;
        }
        const info = await stat(file).catch(() => null);
        if (info && info.mtimeMs < cutoff) await rm(file, { force: true });
      }
    },
  };
}
