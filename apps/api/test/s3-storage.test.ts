import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BLOB_GRACE_MS } from '../src/lib/blob-collector.js';
import { enqueue } from '../src/lib/jobs/queue.js';
import { SINGLE_PUT_BYTES } from '../src/lib/s3-blob-store.js';
import { callAs } from './access.js';
import { createTestApp, type TestContext } from './app.js';
import { loginAs, TEST_PASSWORD } from './factories.js';
import { multipart } from './multipart.js';
import { startS3, type TestS3 } from './s3.js';
import { person, seed, seededApp } from './seed.js';

// Quire with STORAGE=s3, through the real app, on a real S3-protocol server (s3rver): files
// go up and come down (whole, by range, revalidated), are collected from the bucket once
// purged, and backups move between a folder store and an S3 one in both directions.

const APP_SECRET = 's3-storage-tests-secret-0123456789';
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const keyOf = (id: string) => `${id.slice(0, 2)}/${id.slice(2, 4)}/${id}`;

let s3: TestS3;
let t: TestContext;
let clock: Date | null = null;
let owner: string;
let admin: string;
let cat = 0;

beforeAll(async () => {
  s3 = await startS3();
  const world = await seededApp(
    {
      users: { owner: {}, admin: { accessType: 'COMPANY ADMIN' } },
      categories: { cat: { grants: { owner: ['upload', 'edit', 'delete'] } } },
    },
    { ...s3.env, APP_SECRET },
    { now: () => clock ?? new Date() },
  );
  t = world.t;
  owner = world.users.owner.token;
  admin = world.users.admin.token;
  cat = world.categories.cat.id;
});
afterAll(async () => {
  await t?.close();
  await s3?.close();
});

async function upload(content: Buffer, filename: string) {
  const form = multipart({ folder_id: String(cat), file: [{ content, filename }] });
  const res = await callAs(t, owner, { method: 'POST', url: '/api/new-upload', ...form });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data.files[0] as { id: number };
}

const download = (ctx: TestContext, token: string, fileId: number, headers: Record<string, string> = {}) =>
  callAs(ctx, token, { method: 'GET', url: `/api/download-files/${fileId}`, headers });

describe('Quire on an S3-compatible store', () => {
  it('stores an upload in the bucket and serves it whole, by range and revalidated', async () => {
    for (const [content, name] of [
      [Buffer.from('a small note kept in S3\n'), 'note.txt'],
      [randomBytes(SINGLE_PUT_BYTES + 1024 * 1024 + 3), 'large.bin'],
    ] as const) {
      const file = await upload(content, name);
      expect(await s3.keys()).toContain(keyOf(sha(content)));
      const whole = await download(t, owner, file.id);
      expect(whole.statusCode).toBe(200);
      expect(whole.headers.etag).toBe(`"${sha(content)}"`);
      expect(whole.rawPayload.equals(content)).toBe(true);
      const end = content.length - 1;
      const ranged = await download(t, owner, file.id, { range: `bytes=5-${Math.min(end, 20_000)}` });
      expect(ranged.statusCode).toBe(206);
      expect(ranged.headers['content-range']).toBe(`bytes 5-${Math.min(end, 20_000)}/${content.length}`);
      expect(ranged.rawPayload.equals(content.subarray(5, Math.min(end, 20_000) + 1))).toBe(true);
      const again = await download(t, owner, file.id, { 'if-none-match': whole.headers.etag as string });
      expect(again.statusCode).toBe(304);
    }
    expect((await s3.keys()).filter((k) => k.startsWith('tmp/'))).toEqual([]);
    const health = await callAs(t, admin, { method: 'GET', url: '/api/health' });
    expect(health.json()).toMatchObject({ status: 'ok', failing: [], storage: { blobs: null } });
  });

  it('removes a purged file from the bucket once the collector finds it unreferenced', async () => {
    const content = Buffer.from(`deleted for good ${randomBytes(8).toString('hex')}`);
    const file = await upload(content, 'gone.txt');
    const key = keyOf(sha(content));
    expect(
      (await callAs(t, owner, { method: 'POST', url: '/api/delete', payload: { file_ids: [file.id] } }))
        .statusCode,
    ).toBe(200);
    expect(
      (await callAs(t, admin, { method: 'DELETE', url: `/api/files/trash-file/${file.id}` })).statusCode,
    ).toBe(200);
    expect(await s3.keys()).toContain(key);
    clock = new Date(Date.now() + BLOB_GRACE_MS + 3_600_000);
    try {
      await t.db.$transaction((tx) => enqueue(tx, 'blobs.collect', {}));
      await t.app.jobs.runDue();
    } finally {
      clock = null;
    }
    expect(await s3.keys()).not.toContain(key);
    expect(await t.db.blob.count({ where: { id: sha(content) } })).toBe(0);
  });

  it('answers 503 storage.unavailable while the S3 service cannot be reached, keeping nothing', async () => {
    // A second S3 service, stopped once the app has started on it.
    const goingAway = await startS3();
    const away = await createTestApp({ ...goingAway.env, APP_SECRET });
    try {
      const world = await seed(away, {
        users: { someone: {} },
        categories: { folder: { grants: { someone: ['upload', 'edit'] } } },
        files: {
          stored: {
            owner: 'someone',
            category: 'folder',
            content: Buffer.from('in the bucket, out of reach'),
          },
        },
      });
      const { token } = world.users.someone;
      const folder = world.categories.folder.id;
      const { stored } = world.files;
      await goingAway.close();
      const before = await away.db.file.count();
      const form = multipart({
        folder_id: String(folder),
        file: [{ content: Buffer.from('new'), filename: 'a.txt' }],
      });
      const up = await callAs(away, token, { method: 'POST', url: '/api/new-upload', ...form });
      expect(up.statusCode).toBe(503);
      expect(up.json()).toMatchObject({ code: 'storage.unavailable' });
      expect(up.json().message).toMatch(/file store is not reachable/);
      expect(await away.db.file.count()).toBe(before);
      const down = await download(away, token, stored.id);
      expect(down.statusCode).toBe(503);
      expect(down.json()).toMatchObject({ code: 'storage.unavailable' });
      // The health report names the file store as failing; calls are still answered.
      const health = await away.app.inject({ method: 'GET', url: '/api/health' });
      expect(health.statusCode).toBe(200);
      expect(health.json()).toMatchObject({
        status: 'degraded',
        failing: ['blobs'],
        message: 'The file store (S3) is not reachable',
      });
    } finally {
      await away.close();
    }
  });

  it('restores a folder store backup into S3, and an S3 backup into a folder store', async () => {
    const proof = { password: TEST_PASSWORD };
    const folder = await createTestApp({ APP_SECRET });
    const back = await createTestApp({ APP_SECRET });
    try {
      // Made on a folder store…
      const content = Buffer.concat([Buffer.from('kept through two restores '), randomBytes(200_000)]);
      const {
        users: { folderAdmin },
        files: { travels: file },
      } = await seed(folder, {
        users: { folderAdmin: { accessType: 'COMPANY ADMIN', username: 'folder.admin' } },
        // Indexed though in no category, as createFile leaves it by default.
        files: { travels: { owner: 'folderAdmin', name: 'travels.bin', content, indexed: true } },
      });
      const folderToken = folderAdmin.token;
      const made = await backup(folder, folderToken);
      const archive = (
        await callAs(folder, folderToken, {
          method: 'POST',
          url: `/api/download_backup_file/${made}`,
          payload: proof,
        })
      ).rawPayload;

      // …restored into the S3 store: the blob is in the bucket and downloads from there.
      const restoredHere = await uploadAndRestore(t, admin, archive);
      expect(restoredHere).toBe('restored');
      expect(await s3.keys()).toContain(keyOf(sha(content)));
      const token = await loginAs(t.app, folderAdmin);
      expect((await download(t, token, file.id)).rawPayload.equals(content)).toBe(true);

      // A backup made on the S3 store (its archive is stored in the bucket) restores into a folder store.
      const madeOnS3 = await backup(t, token);
      const archiveKey = (await t.db.backup.findUniqueOrThrow({ where: { id: madeOnS3 } })).blobId;
      expect(await s3.keys()).toContain(keyOf(archiveKey as string));
      const fromS3 = (
        await callAs(t, token, {
          method: 'POST',
          url: `/api/download_backup_file/${madeOnS3}`,
          payload: proof,
        })
      ).rawPayload;
      const backAdmin = await person(back, { accessType: 'COMPANY ADMIN', username: 'back.admin' });
      expect(await uploadAndRestore(back, backAdmin.token, fromS3)).toBe('restored');
      expect(await back.app.deps.blobs.exists(sha(content))).toBe(true);
      expect(
        (await download(back, await loginAs(back.app, folderAdmin), file.id)).rawPayload.equals(content),
      ).toBe(true);
    } finally {
      await folder.close();
      await back.close();
    }

    async function backup(ctx: TestContext, token: string): Promise<number> {
      const res = await callAs(ctx, token, { method: 'POST', url: '/api/create_backup' });
      expect(res.statusCode, res.body).toBe(200);
      await ctx.app.jobs.runDue();
      const row = await ctx.db.backup.findUniqueOrThrow({ where: { id: res.json().data.id } });
      expect(row.status).toBe('succeeded');
      return row.id;
    }

    async function uploadAndRestore(ctx: TestContext, token: string, archive: Buffer) {
      const body = multipart({
        ...proof,
        file: { content: archive, filename: 'archive.tar', contentType: 'application/x-tar' },
      });
      const up = await callAs(ctx, token, { method: 'POST', url: '/api/upload_backup', ...body });
      expect(up.statusCode, up.body).toBe(200);
      const id = up.json().data.id as number;
      const res = await callAs(ctx, token, {
        method: 'POST',
        url: `/api/restore_backup/${id}`,
        payload: { ...proof, confirmation: 'RESTORE' },
      });
      expect(res.statusCode, res.body).toBe(200);
      await ctx.app.jobs.runDue();
      return (await ctx.db.backup.findUniqueOrThrow({ where: { id } })).status;
    }
  });
});
