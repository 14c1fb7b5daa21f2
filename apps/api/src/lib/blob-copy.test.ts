import { createHash, randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startS3, type TestS3 } from '../../test/s3.js';
import { copyBlobs } from './blob-copy.js';
import { type BlobStore, createBlobStore } from './blob-store.js';
import { createS3BlobStore, SINGLE_PUT_BYTES } from './s3-blob-store.js';

// pnpm blobs:migrate's copy: a folder store into a real S3-protocol server (s3rver) and back,
// each copy verified against its address, resumable after a stop.

let s3: TestS3;
let dirs: string[] = [];
let bucket: BlobStore;
const folder = async () => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'quire-copy-'));
  dirs.push(dir);
  return { dir, blobs: createBlobStore(dir) };
};
beforeAll(async () => {
  s3 = await startS3();
  bucket = createS3BlobStore(s3.options);
});
afterAll(async () => {
  await s3.close();
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  dirs = [];
});

const ids = async (store: BlobStore) => {
  const out: string[] = [];
  for await (const b of store.list()) out.push(b.id);
  return out.sort();
};

describe('copying every blob between stores', () => {
  it('copies a folder store into S3 and back, verified, going on where a stopped run stopped', async () => {
    const source = await folder();
    const contents = [
      randomBytes(SINGLE_PUT_BYTES + 100),
      ...Array.from({ length: 5 }, (_, i) => randomBytes(1000 + i)),
    ];
    for (const c of contents) await source.blobs.put(c);
    const all = await ids(source.blobs);
    expect(all).toHaveLength(6);

    // A run stopped after two blobs…
    const stop = new AbortController();
    const first = await copyBlobs(source.blobs, bucket, {
      signal: stop.signal,
      onProgress: (p) => p.copied === 2 && stop.abort(),
    });
    expect(first).toMatchObject({ copied: 2, skipped: 0, failed: [] });
    // …and the next one copies the rest and skips what is there.
    const second = await copyBlobs(source.blobs, bucket);
    expect(second).toMatchObject({ copied: 4, skipped: 2, failed: [] });
    expect(await ids(bucket)).toEqual(all);
    expect(first.copiedBytes + second.copiedBytes).toBe(contents.reduce((n, c) => n + c.length, 0));

    const back = await folder();
    expect(await copyBlobs(bucket, back.blobs)).toMatchObject({ copied: 6, skipped: 0, failed: [] });
    expect(await ids(back.blobs)).toEqual(all);
    for (const id of all) {
      const bytes = Buffer.concat(await (await back.blobs.read(id)).toArray());
      expect(createHash('sha256').update(bytes).digest('hex')).toBe(id);
    }
  });

  it('names a blob whose content is not what its address says, and does not store it there', async () => {
    const source = await folder();
    const good = await source.blobs.put(Buffer.from('good content'));
    const wrong = createHash('sha256').update('what it should have been').digest('hex');
    await mkdir(path.join(source.dir, wrong.slice(0, 2), wrong.slice(2, 4)), { recursive: true });
    await writeFile(path.join(source.dir, wrong.slice(0, 2), wrong.slice(2, 4), wrong), 'rotten bytes');
    const target = await folder();
    const result = await copyBlobs(source.blobs, target.blobs);
    expect(result.copied).toBe(1);
    expect(result.failed).toEqual([
      {
        id: wrong,
        reason: `its content has sha256 ${createHash('sha256').update('rotten bytes').digest('hex')}`,
      },
    ]);
    expect(await target.blobs.exists(good.id)).toBe(true);
    expect(await target.blobs.exists(wrong)).toBe(false);
  });
});
