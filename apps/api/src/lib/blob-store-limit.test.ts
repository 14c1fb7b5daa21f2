import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BlobStore, BlobTooLargeError, createBlobStore } from './blob-store.js';

// The store's own size limit (signatures, company images, backup uploads pass maxBytes): a
// content of exactly the limit is kept, one byte more is refused and nothing of it stays.

let dir: string;
let blobs: BlobStore;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'quire-blob-limit-'));
  blobs = createBlobStore(dir);
});
afterAll(() => rm(dir, { recursive: true, force: true }));

/** `size` bytes in chunks of 1000, as an upload arrives. */
function stream(size: number, fill: number) {
  const chunks: Buffer[] = [];
  for (let at = 0; at < size; at += 1000) chunks.push(Buffer.alloc(Math.min(1000, size - at), fill));
  return Readable.from(chunks);
}

const files = async () =>
  (await readdir(dir, { recursive: true, withFileTypes: true })).filter((e) => e.isFile());

describe('blob store maxBytes', () => {
  it('keeps content of exactly maxBytes, refuses one byte more and keeps nothing of it', async () => {
    const limit = 64 * 1024;
    const kept = await blobs.put(stream(limit, 1), { maxBytes: limit });
    expect(kept.size).toBe(limit);
    expect(await blobs.exists(kept.id)).toBe(true);
    const before = (await files()).length;
    await expect(blobs.put(stream(limit + 1, 2), { maxBytes: limit })).rejects.toBeInstanceOf(
      BlobTooLargeError,
    );
    expect((await files()).length).toBe(before);
  });
});
