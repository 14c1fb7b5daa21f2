import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from './app.js';
import { multipart } from './multipart.js';
import { uploader } from './seed.js';

// Many uploads at once into one category (issue 23, point 12): contention for the category's
// running number, the same content's blob row and the pool's connections never fails an
// upload, and every version names content that is in the store. The database is made slow
// the way a loaded machine makes it (each version's insert takes 250 ms, in this test's own
// database only): a transaction that holds the category's row lock across its statements
// makes thirty uploads queue past the transaction timeout.

let t: TestContext;
let token = '';
let folder = 0;
beforeAll(async () => {
  t = await createTestApp();
  ({
    token,
    category: { id: folder },
  } = await uploader(t));
  await t.db.$executeRawUnsafe(`
    CREATE FUNCTION test_slow_insert() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN PERFORM pg_sleep(0.25); RETURN NEW; END $$`);
  await t.db.$executeRawUnsafe(
    'CREATE TRIGGER test_slow_insert BEFORE INSERT ON file_versions FOR EACH ROW EXECUTE FUNCTION test_slow_insert()',
  );
});
afterAll(() => t.close());

function upload(content: Buffer, name: string) {
  const form = multipart({ folder_id: String(folder), file: { content, filename: name } });
  return t.app.inject({
    method: 'POST',
    url: '/api/new-upload',
    headers: { ...form.headers, authorization: `Bearer ${token}` },
    payload: form.payload,
  });
}

async function everyVersionHasItsContent() {
  const versions = await t.db.fileVersion.findMany({ select: { blobId: true } });
  for (const v of versions) expect(await t.app.deps.blobs.exists(v.blobId), v.blobId).toBe(true);
  const blobs = await t.db.blob.findMany({ select: { id: true } });
  for (const b of blobs) expect(await t.app.deps.blobs.exists(b.id), b.id).toBe(true);
}

describe('thirty uploads at once into one category', () => {
  it('of the same content: all 200, one blob, thirty files with distinct running numbers', async () => {
    const content = randomBytes(512 * 1024);
    const before = await t.db.file.count();
    const res = await Promise.all(Array.from({ length: 30 }, (_, i) => upload(content, `same-${i}.bin`)));
    expect(res.map((r) => r.statusCode)).toEqual(res.map(() => 200));
    expect(await t.db.file.count()).toBe(before + 30);
    const numbers = await t.db.file.findMany({
      where: { categoryId: folder },
      select: { incrementalValue: true },
    });
    expect(new Set(numbers.map((n) => n.incrementalValue)).size).toBe(numbers.length);
    await everyVersionHasItsContent();
  });

  it('of different content: all 200, each version names its own stored content', async () => {
    const before = await t.db.blob.count();
    const res = await Promise.all(
      Array.from({ length: 30 }, (_, i) => upload(randomBytes(512 * 1024), `other-${i}.bin`)),
    );
    expect(res.map((r) => r.statusCode)).toEqual(res.map(() => 200));
    expect(await t.db.blob.count()).toBe(before + 30);
    await everyVersionHasItsContent();
  });

  it('do not queue behind each other: the category is locked only to number the files', async () => {
    // Twenty versions' inserts take 20 x 250 ms = 5 s one after the other; five connections
    // run them five at a time (about 1 s).
    const started = Date.now();
    const res = await Promise.all(
      Array.from({ length: 20 }, (_, i) => upload(Buffer.from(`small ${i}`), `small-${i}.txt`)),
    );
    expect(res.map((r) => r.statusCode)).toEqual(res.map(() => 200));
    expect(Date.now() - started).toBeLessThan(5000);
  });
});
