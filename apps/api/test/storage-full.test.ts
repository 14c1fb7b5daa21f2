import { existsSync, readdirSync } from 'node:fs';
import { open } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BlobStore, createBlobStore } from '../src/lib/blob-store.js';
import { createTestApp, type TestContext } from './app.js';
import { bearer } from './factories.js';
import { multipart } from './multipart.js';
import { person, uploader } from './seed.js';

// A full disk (issue 23, point 14). There is no tiny filesystem to fill here, so the blob
// store's temp files are opened for real and their writes fail as a full disk fails them:
// with an ENOSPC error from the file handle. The upload is a 507 that says the store is full,
// and nothing is kept; /api/health shows the free space.

let t: TestContext;
let token = '';
let folder = 0;
let realStore: BlobStore;
beforeAll(async () => {
  t = await createTestApp();
  ({
    token,
    category: { id: folder },
  } = await uploader(t));
  realStore = t.app.deps.blobs;
});
afterAll(() => t.close());

const noSpace = () =>
  Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC', errno: -28 });

/** A blob store on the same folder whose disk is full: every write of a temp file fails. */
function fullDiskStore(dir: string): BlobStore {
  return createBlobStore(dir, {
    openTemp: async (file) => {
      const fh = await open(file, 'w');
      const fail = async () => {
        throw noSpace();
      };
      Object.assign(fh, { write: fail, writev: fail });
      return fh;
    },
  });
}

const storedFiles = () => {
  const dir = t.app.deps.config.storageDir;
  return existsSync(dir)
    ? readdirSync(dir, { recursive: true, withFileTypes: true })
        .filter((e) => e.isFile())
        .map((e) => e.name)
    : [];
};

function upload(content: Buffer) {
  const form = multipart({ folder_id: String(folder), file: { content, filename: 'full.txt' } });
  return t.app.inject({
    method: 'POST',
    url: '/api/new-upload',
    headers: { ...form.headers, authorization: `Bearer ${token}` },
    payload: form.payload,
  });
}

describe('the blob store on a full disk', () => {
  it('answers an upload 507 saying the store is full, and keeps nothing', async () => {
    const before = { files: await t.db.file.count(), blobs: await t.db.blob.count(), stored: storedFiles() };
    t.app.deps.blobs = fullDiskStore(t.app.deps.config.storageDir);
    try {
      const res = await upload(Buffer.alloc(300_000, 'x'));
      expect(res.statusCode, res.body).toBe(507);
      expect(res.json()).toMatchObject({ code: 'storage.full' });
      expect(res.json().message).toMatch(/file store is full/);
    } finally {
      t.app.deps.blobs = realStore;
    }
    expect(await t.db.file.count()).toBe(before.files);
    expect(await t.db.blob.count()).toBe(before.blobs);
    expect(storedFiles()).toEqual(before.stored);
    expect(
      existsSync(path.join(t.app.deps.config.storageDir, 'tmp'))
        ? readdirSync(path.join(t.app.deps.config.storageDir, 'tmp'))
        : [],
    ).toEqual([]);
    // with room again, the same upload goes through
    expect((await upload(Buffer.alloc(300_000, 'x'))).statusCode).toBe(200);
  });

  it("answers 507 when PostgreSQL's disk is full (53100), and keeps no row", async () => {
    // PostgreSQL raises disk_full from the insert of the file row, as a full disk does;
    // the error travels through Prisma's driver adapter to the one error handler.
    await t.db.$executeRawUnsafe(`CREATE FUNCTION pg_disk_full() RETURNS trigger LANGUAGE plpgsql AS
      $$ BEGIN RAISE EXCEPTION 'could not extend file: No space left on device' USING ERRCODE = 'disk_full'; END $$`);
    await t.db.$executeRawUnsafe(
      'CREATE TRIGGER pg_disk_full BEFORE INSERT ON files FOR EACH ROW EXECUTE FUNCTION pg_disk_full()',
    );
    const before = { files: await t.db.file.count(), events: await t.db.auditEvent.count() };
    try {
      const res = await upload(Buffer.from('a row the database has no room for'));
      expect(res.statusCode, res.body).toBe(507);
      expect(res.json()).toMatchObject({ code: 'database.full' });
      expect(res.json().message).toMatch(/database's disk is full, so nothing was saved/);
    } finally {
      await t.db.$executeRawUnsafe('DROP TRIGGER pg_disk_full ON files');
      await t.db.$executeRawUnsafe('DROP FUNCTION pg_disk_full()');
    }
    expect(await t.db.file.count()).toBe(before.files);
    expect(await t.db.auditEvent.count()).toBe(before.events);
  });

  it('health reports the free space of the blob store and of the data folder (to an admin)', async () => {
    const { token: admin } = await person(t, { accessType: 'COMPANY ADMIN' });
    const res = await t.app.inject({ method: 'GET', url: '/api/health', headers: bearer(admin) });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ status: 'ok', database: 'up' });
    for (const disk of [body.storage.blobs, body.storage.data_dir]) {
      expect(disk.free_bytes).toBeGreaterThan(0);
      expect(disk.total_bytes).toBeGreaterThanOrEqual(disk.free_bytes);
    }
  });
});
