import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JOBS_CHANNEL } from '../src/lib/jobs/queue.js';
import { insertUploads } from '../src/modules/file/file.repository.js';
import { createTestApp, type TestContext } from './app.js';
import { childServersKilledAfterEach } from './child-server.js';
import { multipart } from './multipart.js';
import { seed, uploader } from './seed.js';

// A new upload is written as one statement (file.repository insertUploads): its rows, audit
// event, file event jobs and the workers' wake-up commit together before the 200, and its
// content is synced before that statement runs. So a server killed with SIGKILL right after
// answering keeps every file it answered for, and a category gone writes nothing.

let t: TestContext;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());
const startServer = childServersKilledAfterEach(() => t.databaseUrl);

/** The jobs an upload enqueues, in order: its text is read and its preview made. */
const UPLOAD_JOBS = ['search.extract', 'preview.derive'];

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

describe('a new upload', () => {
  it('keeps every answered file, row and content, when the server is killed right after the 200', {
    timeout: 120_000,
  }, async () => {
    const { token, category } = await uploader(t);
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'quire-durable-'));
    const server = await startServer(dataDir);

    const contents = Array.from({ length: 5 }, (_, i) => Buffer.from(`durable ${i} ${'x'.repeat(4000 + i)}`));
    const ids: number[] = [];
    for (const [i, content] of contents.entries()) {
      const form = multipart({ folder_id: String(category.id), file: { content, filename: `d-${i}.txt` } });
      const res = await fetch(`${server.url}/api/new-upload`, {
        method: 'POST',
        headers: { ...form.headers, authorization: `Bearer ${token}` },
        body: form.payload,
      });
      expect(res.status).toBe(200);
      ids.push(((await res.json()) as { data: { files: Array<{ id: number }> } }).data.files[0]!.id);
    }
    const exited = new Promise((r) => server.proc.once('exit', r));
    server.proc.kill('SIGKILL');
    await exited;

    const files = await t.db.file.findMany({
      where: { id: { in: ids } },
      include: { currentVersion: true },
      orderBy: { id: 'asc' },
    });
    expect(files.map((f) => f.id)).toEqual(ids);
    for (const [i, f] of files.entries()) {
      const blobId = f.currentVersion?.blobId as string;
      expect(blobId).toBe(sha256(contents[i]!));
      const onDisk = readFileSync(
        path.join(dataDir, 'blobs', blobId.slice(0, 2), blobId.slice(2, 4), blobId),
      );
      expect(onDisk.equals(contents[i]!)).toBe(true);
    }
    const numbers = files.map((f) => f.incrementalValue);
    expect(new Set(numbers).size).toBe(5);
    expect(
      await t.db.auditEvent.count({ where: { action: 'file.uploaded', targetId: { in: ids.map(String) } } }),
    ).toBe(5);
  });

  it('commits its file, version, audit event and its text and preview jobs together, and wakes the workers', async () => {
    const { user, token, category } = await uploader(t);
    const listener = new pg.Client({ connectionString: t.databaseUrl });
    await listener.connect();
    const heard: string[] = [];
    listener.on('notification', (n) => {
      if (n.channel === JOBS_CHANNEL) heard.push(n.payload ?? '');
    });
    await listener.query(`LISTEN ${JOBS_CHANNEL}`);
    try {
      const content = Buffer.from('one statement\n');
      const form = multipart({
        folder_id: String(category.id),
        file: [
          { content, filename: 'a.txt' },
          { content, filename: 'b.txt' },
        ],
      });
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/new-upload',
        headers: { ...form.headers, authorization: `Bearer ${token}` },
        payload: form.payload,
      });
      expect(res.statusCode).toBe(200);
      const answered = res.json().data.files as Array<{ id: number; name: string; incremental: string }>;
      expect(answered.map((f) => f.name)).toEqual(['a.txt', 'b.txt']);
      const files = await t.db.file.findMany({
        where: { id: { in: answered.map((f) => f.id) } },
        include: { currentVersion: true },
        orderBy: { id: 'asc' },
      });
      expect(files.map((f) => f.id)).toEqual(answered.map((f) => f.id));
      const blobId = sha256(content);
      for (const f of files) {
        expect(f).toMatchObject({ ownerId: user.id, categoryId: category.id, indexStatus: 'unindexed' });
        expect(f.currentVersion).toMatchObject({
          fileId: f.id,
          number: 1,
          blobId,
          mimeType: 'text/plain',
          size: BigInt(content.length),
          authorId: user.id,
        });
        const events = await t.db.auditEvent.findMany({
          where: { action: 'file.uploaded', targetId: String(f.id) },
        });
        expect(events).toHaveLength(1);
        expect(events[0]).toMatchObject({
          userId: user.id,
          type: 'file',
          targetType: 'file',
          message: `Uploaded "${f.name}"`,
          details: { folder_id: category.id, blob_id: blobId, size: content.length, mime_type: 'text/plain' },
        });
        expect(events[0]?.hash).toMatch(/^k1:/);
        const jobs = await t.db.job.findMany({
          where: { payload: { path: ['file_id'], equals: f.id } },
          orderBy: { id: 'asc' },
        });
        // An upload's jobs: its text and its preview; followers and workflows take no upload.
        expect(jobs.map((j) => j.kind)).toEqual(UPLOAD_JOBS);
        for (const j of jobs)
          expect(j.payload).toEqual({
            type: 'uploaded',
            file_id: f.id,
            version_id: f.currentVersionId,
            category_id: category.id,
            actor_id: user.id,
          });
      }
      expect(await t.db.blob.count({ where: { id: blobId } })).toBe(1);
      expect(Number(files[1]?.incrementalValue)).toBe(Number(files[0]?.incrementalValue) + 1);
      const deadline = Date.now() + 5000;
      while (heard.length < UPLOAD_JOBS.length && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 20));
      expect(new Set(heard)).toEqual(new Set(UPLOAD_JOBS));
    } finally {
      await listener.end();
    }
  });

  it('written as a group: a call into a category that is gone gets null and writes nothing, the others go in', async () => {
    const {
      users: { user, other },
      categories: { gone, live },
    } = await seed(t, {
      users: { user: { signIn: false }, other: { signIn: false } },
      categories: { gone: { grants: { user: ['upload'] } }, live: { grants: { other: ['upload'] } } },
    });
    await t.db.category.update({ where: { id: gone.id }, data: { deletedAt: new Date() } });
    const counts = async () => [
      await t.db.file.count(),
      await t.db.fileVersion.count(),
      await t.db.auditEvent.count(),
      await t.db.job.count(),
    ];
    const before = await counts();
    const row = (name: string) => ({
      name,
      blobId: sha256(Buffer.from(name)),
      size: name.length,
      mimeType: 'text/plain',
      message: `Uploaded "${name}"`,
    });
    const [intoGone, intoLive, again] = await insertUploads(t.db, [
      { folderId: gone.id, ownerId: user.id, actor: { userId: user.id }, uploads: [row('x.txt')] },
      {
        folderId: live.id,
        ownerId: other.id,
        actor: { userId: other.id },
        uploads: [row('y.txt'), row('z.txt')],
      },
      {
        folderId: live.id,
        ownerId: user.id,
        actor: { userId: user.id, ip: '10.0.0.9' },
        uploads: [row('w.txt')],
      },
    ]);
    expect(intoGone).toBeNull();
    expect(intoLive?.map((f) => [f.name, f.owner_id])).toEqual([
      ['y.txt', other.id],
      ['z.txt', other.id],
    ]);
    expect(again?.map((f) => [f.name, f.owner_id])).toEqual([['w.txt', user.id]]);
    // One category's running numbers in call order, across the calls of the group.
    const numbers = [...(intoLive ?? []), ...(again ?? [])].map((f) => f.incremental_value);
    expect(numbers).toEqual([1, 2, 3].map((n) => (numbers[0] ?? 0) + n - 1));
    const [files, versions, events, jobs] = before;
    expect(await counts()).toEqual([
      (files ?? 0) + 3,
      (versions ?? 0) + 3,
      (events ?? 0) + 3,
      (jobs ?? 0) + 3 * UPLOAD_JOBS.length,
    ]);
    const event = await t.db.auditEvent.findFirstOrThrow({ where: { targetId: String(again?.[0]?.id) } });
    expect(event).toMatchObject({ userId: user.id, ip: '10.0.0.9', message: 'Uploaded "w.txt"' });
  });
});
