import { spawnSync } from 'node:child_process';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startS3, type TestS3 } from '../../test/s3.js';
import { type BlobStore, createBlobStore, TEMP_PREFIX } from './blob-store.js';
import { BlobTooLargeError } from './content-meter.js';
import { createS3BlobStore, SINGLE_PUT_BYTES } from './s3-blob-store.js';

// One suite, run on both blob stores: the folder and an S3-compatible bucket (a real
// S3-protocol server, s3rver, on 127.0.0.1). Both keep the same layout (`ab/cd/<sha256>`,
// uploads in flight under `tmp/`), so `held()` lists what either keeps in the same words.

interface OpenStore {
  blobs: BlobStore;
  /** Everything the store holds, temp files or objects included, as `ab/cd/<id>` / `tmp/<name>`. */
  held(): Promise<string[]>;
  /** Leaves something at `name` (relative to the store's root), as a killed writer or another program would. */
  plant(name: string): Promise<void>;
  close(): Promise<void>;
}

const stores: Array<{ name: string; open(): Promise<OpenStore> }> = [
  {
    name: 'folder',
    async open() {
      const dir = await mkdtemp(path.join(os.tmpdir(), 'quire-blob-store-'));
      return {
        blobs: createBlobStore(dir),
        held: async () =>
          (await readdir(dir, { recursive: true, withFileTypes: true }))
            .filter((e) => e.isFile())
            .map((e) => path.relative(dir, path.join(e.parentPath, e.name)))
            .sort(),
        async plant(name) {
          await mkdir(path.dirname(path.join(dir, name)), { recursive: true });
          await writeFile(path.join(dir, name), 'left behind');
        },
        close: () => rm(dir, { recursive: true, force: true }),
      };
    },
  },
  {
    name: 'S3 (s3rver)',
    async open() {
      const s3: TestS3 = await startS3();
      return {
        blobs: createS3BlobStore(s3.options),
        held: () => s3.keys(),
        async plant(name) {
          await s3.client.send(
            new PutObjectCommand({ Bucket: s3.options.bucket, Key: name, Body: Buffer.from('left behind') }),
          );
        },
        close: () => s3.close(),
      };
    },
  },
];

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const keyOf = (id: string) => `${id.slice(0, 2)}/${id.slice(2, 4)}/${id}`;

/** `content` as a stream of `chunk`-byte pieces, as an upload arrives. */
function streamOf(content: Buffer, chunk = 64 * 1024) {
  const pieces: Buffer[] = [];
  for (let at = 0; at < content.length; at += chunk) pieces.push(content.subarray(at, at + chunk));
  return Readable.from(pieces);
}

async function readAll(stream: AsyncIterable<Buffer | Uint8Array>) {
  const parts: Buffer[] = [];
  for await (const part of stream) parts.push(Buffer.from(part));
  return Buffer.concat(parts);
}

/** Larger than one single put of the S3 store: it goes as a multipart upload there. */
const LARGE = SINGLE_PUT_BYTES + 3 * 1024 * 1024 + 17;

describe.each(stores)('the blob store on $name', (store) => {
  let s: OpenStore;
  beforeAll(async () => {
    s = await store.open();
  });
  afterAll(() => s.close());

  it('keeps content at its sha256 and reads it back whole, by range and as chunks', async () => {
    const content = randomBytes(100_000);
    const blob = await s.blobs.put(content);
    expect(blob).toEqual({ id: sha256(content), size: content.length });
    expect(await s.held()).toContain(keyOf(blob.id));
    expect(await s.blobs.exists(blob.id)).toBe(true);
    expect(await s.blobs.size(blob.id)).toBe(content.length);
    expect((await readAll(await s.blobs.read(blob.id))).equals(content)).toBe(true);
    expect(await readAll(await s.blobs.read(blob.id, { start: 10, end: 99 }))).toEqual(
      content.subarray(10, 100),
    );
    const chunks: number[] = [];
    const all = await readAll(
      (async function* () {
        for await (const chunk of s.blobs.readChunks(blob.id, undefined, 16_384)) {
          chunks.push(chunk.length);
          yield Buffer.from(chunk);
        }
      })(),
    );
    expect(all.equals(content)).toBe(true);
    expect(Math.max(...chunks)).toBeLessThanOrEqual(16_384);
    expect(chunks.length).toBeGreaterThanOrEqual(Math.ceil(100_000 / 16_384));
    const tail = await readAll(s.blobs.readChunks(blob.id, { start: 99_990, end: 99_999 }));
    expect(tail).toEqual(content.subarray(99_990));
  });

  it('streams content larger than one part and reads it back, a range across parts included', async () => {
    const content = randomBytes(LARGE);
    const before = await s.held();
    const blob = await s.blobs.put(streamOf(content));
    expect(blob).toEqual({ id: sha256(content), size: LARGE });
    expect(await s.held()).toEqual([...before, keyOf(blob.id)].sort());
    expect(sha256(await readAll(s.blobs.readChunks(blob.id)))).toBe(blob.id);
    const at = SINGLE_PUT_BYTES - 5;
    expect(await readAll(await s.blobs.read(blob.id, { start: at, end: at + 9 }))).toEqual(
      content.subarray(at, at + 10),
    );
  });

  it('takes chunks from a producer that reuses its buffer', async () => {
    const buffer = Buffer.alloc(1024 * 1024);
    const expected = createHash('sha256');
    const produce = async function* () {
      for (let i = 0; i < 12; i++) {
        buffer.fill(i + 1);
        expected.update(buffer);
        yield buffer;
      }
    };
    const blob = await s.blobs.putChunks(produce());
    expect(blob).toEqual({ id: expected.digest('hex'), size: 12 * 1024 * 1024 });
    const back = await readAll(s.blobs.readChunks(blob.id));
    expect(back.subarray(0, 1024 * 1024).every((b) => b === 1)).toBe(true);
    expect(back.subarray(11 * 1024 * 1024).every((b) => b === 12)).toBe(true);
    expect(sha256(back)).toBe(blob.id);
  });

  it('keeps the same content once, however often it is put', async () => {
    const content = Buffer.from(`twice ${randomUUID()}`);
    const first = await s.blobs.put(content);
    const before = await s.held();
    const second = await s.blobs.put(streamOf(content, 3));
    expect(second).toEqual(first);
    expect(await s.held()).toEqual(before);
    const listed: string[] = [];
    for await (const b of s.blobs.list()) if (b.id === first.id) listed.push(b.id);
    expect(listed).toEqual([first.id]);
  });

  it.each([
    ['in one piece', 64 * 1024],
    ['in parts', LARGE],
  ])(
    'keeps content of exactly maxBytes and refuses one byte more, keeping nothing of it (%s)',
    async (_, limit) => {
      const kept = await s.blobs.put(streamOf(randomBytes(limit)), { maxBytes: limit });
      expect(kept.size).toBe(limit);
      expect(await s.blobs.exists(kept.id)).toBe(true);
      const before = await s.held();
      await expect(s.blobs.put(streamOf(randomBytes(limit + 1)), { maxBytes: limit })).rejects.toBeInstanceOf(
        BlobTooLargeError,
      );
      expect(await s.held()).toEqual(before);
    },
  );

  it.each([
    ['in one piece', 50_000],
    ['in parts', LARGE],
  ])(
    'lets inspect see the first bytes and refuse the content before anything is kept (%s)',
    async (_, size) => {
      const content = randomBytes(size);
      const seen: Buffer[] = [];
      const before = await s.held();
      const refusal = new Error('not an image');
      await expect(
        s.blobs.put(streamOf(content, 1000), {
          inspectBytes: 4100,
          inspect: (head) => {
            seen.push(Buffer.from(head));
            throw refusal;
          },
        }),
      ).rejects.toBe(refusal);
      expect(seen).toHaveLength(1);
      expect(seen[0]).toEqual(content.subarray(0, 4100));
      expect(await s.held()).toEqual(before);
      const passed = await s.blobs.put(streamOf(content, 1000), { inspect: () => {} });
      expect(passed.id).toBe(sha256(content));
    },
  );

  it('keeps nothing of a source that fails half way', async () => {
    const before = await s.held();
    const failing = Readable.from(
      (async function* () {
        for (let i = 0; i < 160; i++) yield randomBytes(64 * 1024);
        throw new Error('the client went away');
      })(),
    );
    await expect(s.blobs.put(failing)).rejects.toThrow('the client went away');
    expect(await s.held()).toEqual(before);
  });

  it('keeps content only once its admission passed; a refusal keeps nothing and stops the reading', async () => {
    const before = await s.held();
    const content = randomBytes(200 * 1024);
    let letIn = () => {};
    const admitted = await s.blobs.put(streamOf(content), {
      admit: new Promise<void>((resolve) => {
        letIn = resolve;
        setTimeout(resolve, 20);
      }),
    });
    expect(admitted.id).toBe(sha256(content));
    expect(await readAll(await s.blobs.read(admitted.id))).toEqual(content);
    letIn();

    const after = await s.held();
    let pieces = 0;
    const endless = Readable.from(
      (async function* () {
        for (;;) {
          pieces++;
          yield randomBytes(16 * 1024);
          await new Promise((r) => setTimeout(r, 1));
        }
      })(),
    );
    const refusal = Promise.reject(new Error('not yours'));
    await expect(s.blobs.put(endless, { admit: refusal })).rejects.toThrow('not yours');
    expect(pieces).toBeLessThan(50);
    expect(await s.held()).toEqual(after);
    expect(after.length).toBe(before.length + 1);
  });

  it('removes content, unless a put touched it after the given time', async () => {
    const gone = await s.blobs.put(Buffer.from(`remove me ${randomUUID()}`));
    await s.blobs.remove(gone.id, { unlessTouchedAfter: new Date(Date.now() + 60_000) });
    expect(await s.blobs.exists(gone.id)).toBe(false);
    expect(await s.held()).not.toContain(keyOf(gone.id));
    await expect(s.blobs.size(gone.id)).rejects.toThrow();
    await s.blobs.remove(gone.id);

    const touched = await s.blobs.put(Buffer.from(`keep me ${randomUUID()}`));
    await s.blobs.remove(touched.id, { unlessTouchedAfter: new Date(Date.now() - 60_000) });
    expect(await s.blobs.exists(touched.id)).toBe(true);
    await s.blobs.remove(touched.id);
    expect(await s.blobs.exists(touched.id)).toBe(false);
  });

  it('lists every stored blob with when it was touched, and nothing else', async () => {
    const a = await s.blobs.put(Buffer.from(`listed ${randomUUID()}`));
    await s.plant('readme.txt');
    await s.plant(`tmp/${TEMP_PREFIX}${randomUUID()}`);
    await s.plant(`${a.id.slice(0, 2)}/${a.id.slice(2, 4)}/${'0'.repeat(64)}`);
    const listed = new Map<string, Date>();
    for await (const b of s.blobs.list()) listed.set(b.id, b.touchedAt);
    const stored = (await s.held()).filter((k) => /^[0-9a-f]{2}\/[0-9a-f]{2}\/[0-9a-f]{64}$/.test(k));
    expect([...listed.keys()].sort()).toEqual(
      stored
        .filter((k) => k.split('/')[2]!.startsWith(k.slice(0, 2) + k.slice(3, 5)))
        .map((k) => k.split('/')[2]),
    );
    expect(listed.has(a.id)).toBe(true);
    expect(Math.abs(listed.get(a.id)!.getTime() - Date.now())).toBeLessThan(10_000);
  });

  it('sweeps the temp files of a writer that is gone, and old ones', async () => {
    const deadPid = spawnSync(process.execPath, ['-e', '']).pid;
    const dead = `tmp/${TEMP_PREFIX.replace(`.${process.pid}.`, `.${deadPid}.`)}${randomUUID()}`;
    const mine = `tmp/${TEMP_PREFIX}${randomUUID()}`;
    const otherHost = `tmp/another-server.${process.pid}.${randomUUID()}`;
    for (const name of [dead, mine, otherHost]) await s.plant(name);
    await s.blobs.sweepTemp();
    let held = await s.held();
    expect(held).not.toContain(dead);
    expect(held).toEqual(expect.arrayContaining([mine, otherHost]));
    await new Promise((r) => setTimeout(r, 50));
    await s.blobs.sweepTemp(0);
    held = await s.held();
    expect(held.filter((k) => k.startsWith('tmp/'))).toEqual([]);
  });

  it('refuses an id that is not a sha256, and answers missing content as missing', async () => {
    for (const bad of ['../../etc/passwd', 'ABC', `${'a'.repeat(63)}/`]) {
      await expect(async () => s.blobs.exists(bad)).rejects.toThrow('Not a blob id');
      await expect(async () => s.blobs.read(bad)).rejects.toThrow('Not a blob id');
    }
    const missing = sha256(Buffer.from(randomUUID()));
    expect(await s.blobs.exists(missing)).toBe(false);
    await expect(s.blobs.size(missing)).rejects.toThrow();
    await expect(readAll(s.blobs.readChunks(missing))).rejects.toThrow();
  });
});
