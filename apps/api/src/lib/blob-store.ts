import { createHash, randomUUID } from 'node:crypto';
import { createReadStream, existsSync } from 'node:fs';
import { mkdir, open, readdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';

export interface StoredBlob {
  /** sha256 of the content, hex: the blob's id and address. */
  id: string;
  size: number;
}

/**
 * Content-addressed file store: a blob lives at `<dir>/ab/cd/<sha256>`. Content is streamed
 * to a temp file while hashed, fsynced, then renamed into place, so a blob is either whole
 * or absent. The store never deletes on its own: callers delete a blob once no row refers
 * to it. Behind this interface an S3-compatible store could replace the filesystem.
 */
export interface BlobStore {
  put(content: Readable | Buffer, options?: { maxBytes?: number }): Promise<StoredBlob>;
  read(id: string): Readable;
  exists(id: string): boolean;
  size(id: string): Promise<number>;
  remove(id: string): Promise<void>;
  /** Deletes temp files older than `olderThanMs` (default 1 h), left by a killed server. */
  sweepTemp(olderThanMs?: number): Promise<void>;
}

export class BlobTooLargeError extends Error {
  override name = 'BlobTooLargeError';
  constructor(readonly maxBytes: number) {
    super(`Content exceeds ${maxBytes} bytes`);
  }
}

const ID = /^[0-9a-f]{64}$/;

export function createBlobStore(dir: string): BlobStore {
  const tmpDir = path.join(dir, 'tmp');
  const pathOf = (id: string) => {
    if (!ID.test(id)) throw new Error(`Not a blob id: ${id}`);
    return path.join(dir, id.slice(0, 2), id.slice(2, 4), id);
  };

  return {
    async put(content, options = {}) {
      await mkdir(tmpDir, { recursive: true });
      const tmp = path.join(tmpDir, randomUUID());
      const hash = createHash('sha256');
      let size = 0;
      const meter = new Transform({
        transform(chunk: Buffer, _enc, done) {
          size += chunk.length;
          if (options.maxBytes !== undefined && size > options.maxBytes) {
            done(new BlobTooLargeError(options.maxBytes));
            return;
          }
          hash.update(chunk);
          done(null, chunk);
        },
      });
      const fh = await open(tmp, 'w');
      try {
        const source = Buffer.isBuffer(content) ? Readable.from([content]) : content;
        // flush: fsync before the stream closes the file (with autoClose off, the stream keeps
        // a reference to the handle and fh.close() never settles).
        await pipeline(source, meter, fh.createWriteStream({ flush: true }));
      } catch (err) {
        await fh.close().catch(() => {});
        await rm(tmp, { force: true });
        throw err;
      }
      const id = hash.digest('hex');
      const target = pathOf(id);
      if (existsSync(target)) {
        await rm(tmp, { force: true });
      } else {
        await mkdir(path.dirname(target), { recursive: true });
        await rename(tmp, target);
        const dirHandle = await open(path.dirname(target), 'r');
        await dirHandle.sync().finally(() => dirHandle.close());
      }
      return { id, size };
    },
    read: (id) => createReadStream(pathOf(id)),
    exists: (id) => existsSync(pathOf(id)),
    size: async (id) => (await stat(pathOf(id))).size,
    remove: (id) => rm(pathOf(id), { force: true }),
    async sweepTemp(olderThanMs = 3_600_000) {
      if (!existsSync(tmpDir)) return;
      // Only old ones: another server sharing this folder may be writing the young ones.
      const cutoff = Date.now() - olderThanMs;
      for (const name of await readdir(tmpDir)) {
        const file = path.join(tmpDir, name);
        const info = await stat(file).catch(() => null);
        if (info && info.mtimeMs < cutoff) await rm(file, { force: true });
      }
    },
  };
}
