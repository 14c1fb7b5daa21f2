import { mkdtemp, utimes } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobDefinitions } from '../src/jobs.js';
import { BLOB_COLLECT_CRON, BLOB_GRACE_MS, blobReferences } from '../src/lib/blob-collector.js';
import { type BlobStore, createBlobStore } from '../src/lib/blob-store.js';
import { enqueue } from '../src/lib/jobs/queue.js';
import { createTestApp, type TestContext } from './app.js';
import { testRunner } from './jobs.js';
import { person } from './seed.js';

// The blob collector deletes blobs (row and file) that no row references, once they are older
// than the grace period. What references a blob is read from the catalog: every foreign key
// to blobs.id, including tables added later.

let t: TestContext;
let blobs: BlobStore;
let dir: string;
beforeAll(async () => {
  t = await createTestApp();
  dir = await mkdtemp(path.join(os.tmpdir(), 'quire-collector-'));
  blobs = createBlobStore(dir);
  // A table the collector's code has never heard of, pointing at blobs.
  await t.db.$executeRawUnsafe(
    'CREATE TABLE "Probe Attachments" (id serial PRIMARY KEY, "The Blob" text REFERENCES blobs(id) ON DELETE RESTRICT)',
  );
});
afterAll(() => t.close());

const hour = 3_600_000;

/** Stores `content` as a blob, its row and its file written `ageMs` ago. */
async function blob(content: string, ageMs: number) {
  const stored = await blobs.put(Buffer.from(content));
  const then = new Date(Date.now() - ageMs);
  await utimes(path.join(dir, stored.id.slice(0, 2), stored.id.slice(2, 4), stored.id), then, then);
  await t.db.blob.create({
    data: {
      id: stored.id,
      size: BigInt(stored.size),
      mimeType: 'text/plain',
      createdAt: new Date(Date.now() - ageMs),
    },
  });
  return stored.id;
}

const exists = async (id: string) => ({
  row: (await t.db.blob.count({ where: { id } })) === 1,
  file: Boolean(await blobs.exists(id)),
});

describe('the blob collector', () => {
  it('finds every foreign key to blobs.id in the catalog, new tables included', async () => {
    expect(await blobReferences(t.db)).toEqual(
      expect.arrayContaining([
        { table: '"Probe Attachments"', column: '"The Blob"' },
        { table: 'companies', column: 'logo_blob_id' },
        { table: 'companies', column: 'background_blob_id' },
        { table: 'users', column: 'signature_blob_id' },
      ]),
    );
  });

  it('deletes an old unreferenced blob, row and file; keeps referenced and young ones', async () => {
    const old = BLOB_GRACE_MS + hour;
    const unreferenced = await blob('nobody points at me', old);
    const signature = await blob('a signature in use', old);
    const attached = await blob('attached in a table added later', old);
    const young = await blob('uploaded a moment ago', hour);
    const user = await person(t, { signIn: false });
    await t.db.user.update({ where: { id: user.id }, data: { signatureBlobId: signature } });
    await t.db.$executeRawUnsafe('INSERT INTO "Probe Attachments" ("The Blob") VALUES ($1)', attached);

    await t.db.$transaction((tx) => enqueue(tx, 'blobs.collect', {}));
    const summary = await testRunner(t, jobDefinitions, { blobs }).runDue();
    expect(summary.done).toBe(1);

    expect(await exists(unreferenced)).toEqual({ row: false, file: false });
    for (const kept of [signature, attached, young])
      expect(await exists(kept)).toEqual({ row: true, file: true });
  });

  it('keeps an old unreferenced blob whose content was just uploaded again (its new row is coming)', async () => {
    const content = 'the same bytes, uploaded again today';
    const id = await blob(content, BLOB_GRACE_MS + hour);
    await blobs.put(Buffer.from(content)); // the new upload: content already there, touched
    await t.db.$transaction((tx) => enqueue(tx, 'blobs.collect', {}));
    await testRunner(t, jobDefinitions, { blobs }).runDue();
    // The stale row went with the collection; the file stays for the row the upload saves.
    expect(await exists(id)).toEqual({ row: false, file: true });
  });

  it('collects a blob once its last reference is gone and the grace period has passed', async () => {
    const id = await blob('a logo replaced later', BLOB_GRACE_MS + hour);
    const target = await t.db.company.create({ data: { name: 'Collector Test Co' } });
    await t.db.company.update({ where: { id: target.id }, data: { logoBlobId: id } });
    const collect = async () => {
      await t.db.$transaction((tx) => enqueue(tx, 'blobs.collect', {}));
      await testRunner(t, jobDefinitions, { blobs }).runDue();
    };
    await collect();
    expect(await exists(id)).toEqual({ row: true, file: true });
    await t.db.company.update({ where: { id: target.id }, data: { logoBlobId: null } });
    await collect();
    expect(await exists(id)).toEqual({ row: false, file: false });
  });

  it('removes old content that no row names; keeps named content and a young upload', async () => {
    const old = BLOB_GRACE_MS + hour;
    // content whose upload failed (or that a restore left behind): in the store, no row
    const orphan = (await blobs.put(Buffer.from('stored, then its upload failed'))).id;
    const then = new Date(Date.now() - old);
    await utimes(path.join(dir, orphan.slice(0, 2), orphan.slice(2, 4), orphan), then, then);
    const named = await blob('named by its row, and old', old);
    const user = await person(t, { signIn: false });
    await t.db.user.update({ where: { id: user.id }, data: { signatureBlobId: named } });
    // an upload in flight: stored a moment ago, its row not yet committed
    const inFlight = (await blobs.put(Buffer.from('an upload whose row is coming'))).id;

    await t.db.$transaction((tx) => enqueue(tx, 'blobs.collect', {}));
    expect((await testRunner(t, jobDefinitions, { blobs }).runDue()).done).toBe(1);

    expect(await exists(orphan)).toEqual({ row: false, file: false });
    expect(await exists(named)).toEqual({ row: true, file: true });
    expect(await exists(inFlight)).toEqual({ row: false, file: true });
  });

  it('runs on its schedule', async () => {
    expect(BLOB_COLLECT_CRON).toBe('17 * * * *');
    const id = await blob('swept by the hourly run', BLOB_GRACE_MS + hour);
    let clock = Date.now() + 5 * hour;
    const worker = () =>
      testRunner(t, jobDefinitions, {
        blobs,
        now: () => new Date(clock),
        schedules: [{ name: 'blobs.collect', kind: 'blobs.collect', cron: BLOB_COLLECT_CRON }],
      });
    await worker().tickSchedules();
    clock += hour;
    expect(await worker().tickSchedules()).toBe(1);
    await worker().runDue();
    expect(await exists(id)).toEqual({ row: false, file: false });
  });
});
