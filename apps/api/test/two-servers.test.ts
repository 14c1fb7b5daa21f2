import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SINGLE_PUT_BYTES } from '../src/lib/s3-blob-store.js';
import type { TestContext } from './app.js';
import { type ChildServer, startChildServer } from './child-server.js';
import { TEST_PASSWORD } from './factories.js';
import { startS3, type TestS3 } from './s3.js';
import { seededApp } from './seed.js';
import { until } from './until.js';

// Quire on several servers: separate processes on one PostgreSQL and one S3-compatible store
// (s3rver), each with a data folder of its own that nothing is shared through. Two servers
// with QUIRE_ROLE=all, then an api server with a worker: a session made on one works on the
// other and ends on both at once; a file uploaded through one downloads through the other;
// a lock taken on one is seen on the other; each due time of a schedule fires once;
// a job enqueued by one is run once, by a worker; one killed mid-upload leaves nothing
// half-written, and the other keeps serving.

/** The secret every child server has (test/upload-server-child.ts); the test's own app uses it too. */
const APP_SECRET = 'child-server-secret-0123456789';

let s3: TestS3;
let t: TestContext;
let user: { id: number; username: string };
let cat = 0;
const servers: ChildServer[] = [];
const dirs: string[] = [];

beforeAll(async () => {
  s3 = await startS3();
  // The user signs in on the servers themselves.
  const world = await seededApp(
    {
      users: { user: { signIn: false } },
      categories: { cat: { grants: { user: ['upload', 'edit'] } } },
    },
    { ...s3.env, APP_SECRET },
  );
  ({
    t,
    users: { user },
  } = world);
  cat = world.categories.cat.id;
});
afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop()));
  await t?.close();
  await s3?.close();
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

async function server(role: 'all' | 'api' | 'worker') {
  const dir = await mkdtemp(path.join(os.tmpdir(), `quire-${role}-`));
  dirs.push(dir);
  const started = await startChildServer(t.databaseUrl, dir, {
    ...s3.env,
    QUIRE_ROLE: role,
    JOBS_POLL_MS: '1000',
  });
  servers.push(started);
  return started;
}

function call(on: { url: string }, token: string | null, method: string, url: string, body?: unknown) {
  return fetch(`${on.url}${url}`, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

async function signIn(on: { url: string }) {
  const res = await call(on, null, 'POST', '/api/login', {
    username: user.username,
    password: TEST_PASSWORD,
    role: 'user',
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { data: { access_token: string } }).data.access_token;
}

async function upload(on: { url: string }, token: string, content: Buffer, filename: string) {
  const form = new FormData();
  form.append('folder_id', String(cat));
  form.append('file', new Blob([content]), filename);
  const res = await fetch(`${on.url}/api/new-upload`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  expect(res.status, await res.clone().text()).toBe(200);
  return ((await res.json()) as { data: { files: Array<{ id: number }> } }).data.files[0]!.id;
}

/** Waits until the text of the file's current version has been read (by whichever worker). */
async function textRead(on: ChildServer, token: string, fileId: number) {
  let status: string | null = null;
  await until(
    async () => {
      const res = await call(on, token, 'GET', `/api/search/text-status/${fileId}`);
      status = ((await res.json()) as { data: { status: string | null } }).data.status;
      return status !== null && status !== 'pending';
    },
    60_000,
    `the text of file ${fileId} read`,
  );
  return status;
}

/** The search.extract jobs of these files' versions: each done, each after exactly one attempt. */
async function extractJobs(fileIds: number[]) {
  const versions = await t.db.fileVersion.findMany({
    where: { fileId: { in: fileIds } },
    select: { id: true },
  });
  return t.db.$queryRawUnsafe<Array<{ status: string; attempts: number }>>(
    `SELECT status::text, attempts FROM jobs WHERE kind = 'search.extract'
       AND (payload->>'version_id')::int = ANY($1::int[]) ORDER BY id`,
    versions.map((v) => v.id),
  );
}

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/** A round-robin on 127.0.0.1: each request goes to the next server; `served` counts them per server. */
async function roundRobin(backends: ChildServer[]) {
  const served = backends.map(() => 0);
  let next = 0;
  const proxy = http.createServer((req, res) => {
    const at = next++ % backends.length;
    served[at]! += 1;
    const upstream = http.request(
      {
        host: '127.0.0.1',
        port: backends[at]!.port,
        method: req.method,
        path: req.url,
        headers: req.headers,
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  const { port } = proxy.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    served,
    close: () => new Promise<void>((resolve) => proxy.close(() => resolve())),
  };
}

describe('two servers on one database and one S3 store', () => {
  it('QUIRE_ROLE=all twice: sessions, files and jobs are shared; each job runs once', {
    timeout: 360_000,
  }, async () => {
    const started = new Date();
    const [a, b] = await Promise.all([server('all'), server('all')]);
    const token = await signIn(a);
    expect((await call(b, token, 'GET', '/api/check-session')).status).toBe(200);

    // Behind a round-robin every call goes to the next server: nothing needs to stick.
    const lb = await roundRobin([a, b]);
    try {
      const viaLb = await signIn(lb);
      for (let i = 0; i < 4; i++)
        expect((await call(lb, viaLb, 'GET', '/api/check-session')).status).toBe(200);
      const note = Buffer.from(`behind the round-robin ${randomBytes(4).toString('hex')}\n`);
      const noteId = await upload(lb, viaLb, note, 'round-robin.txt');
      for (let i = 0; i < 4; i++) {
        const got = await call(lb, viaLb, 'GET', `/api/download-files/${noteId}`);
        expect(Buffer.from(await got.arrayBuffer())).toEqual(note);
      }
      expect(lb.served).toEqual([5, 5]);
    } finally {
      await lb.close();
    }

    // A file uploaded through one downloads through the other, whole and by range.
    const large = randomBytes(SINGLE_PUT_BYTES + 2 * 1024 * 1024 + 11);
    const largeId = await upload(a, token, large, 'large.bin');
    const whole = await call(b, token, 'GET', `/api/download-files/${largeId}`);
    expect(whole.status).toBe(200);
    expect(sha(Buffer.from(await whole.arrayBuffer()))).toBe(sha(large));
    const part = await fetch(`${b.url}/api/download-files/${largeId}`, {
      headers: { authorization: `Bearer ${token}`, range: 'bytes=8388600-8388615' },
    });
    expect(part.status).toBe(206);
    expect(Buffer.from(await part.arrayBuffer())).toEqual(large.subarray(8_388_600, 8_388_616));

    // Uploads through both enqueue text extraction; the two workers share the queue and each
    // job runs exactly once; what one extracted is found through the other.
    const word = `zebracorn${randomBytes(4).toString('hex')}`;
    const ids: number[] = [];
    for (let i = 0; i < 8; i++) {
      const through = i % 2 ? b : a;
      ids.push(
        await upload(through, token, Buffer.from(`note ${i} mentions ${word} once\n`), `note-${i}.txt`),
      );
    }
    for (const [i, id] of ids.entries()) expect(await textRead(i % 2 ? a : b, token, id)).toBe('done');
    const jobs = await extractJobs(ids);
    expect(jobs).toHaveLength(ids.length);
    expect(jobs.every((j) => j.status === 'done' && j.attempts === 1)).toBe(true);
    // Search lists indexed files only: they are indexed here as submitting their values would.
    await t.db.file.updateMany({
      where: { id: { in: ids } },
      data: { indexStatus: 'indexed', indexedAt: new Date() },
    });
    const found = await call(b, token, 'GET', `/api/all-search-files?search=${word}`);
    const items = ((await found.json()) as { data: { items: Array<{ id: number }> } }).data.items;
    expect(items.map((f) => f.id).sort()).toEqual([...ids].sort());

    // A lock taken through one is seen through the other.
    expect((await call(a, token, 'POST', '/api/lock-file', { file_id: largeId, status: '1' })).status).toBe(
      200,
    );
    const view = await call(b, token, 'GET', `/api/file-view/${largeId}`);
    const lockedBy = ((await view.json()) as { data: { locked_by: { id: number } | null } }).data.locked_by;
    expect(lockedBy?.id).toBe(user.id);

    // Both servers look at the schedules; each due time fires once (workflow.clock is due
    // every minute: wait for one that came due while both ran).
    await until(
      async () =>
        (
          await t.db.$queryRaw<Array<{ n: number }>>`
            SELECT count(*)::int AS n FROM jobs
            WHERE kind = 'workflow.clock' AND (payload->>'due_at')::timestamptz > ${started}`
        )[0]!.n > 0,
      90_000,
      'a workflow.clock due time while both servers ran',
    );
    const twice = await t.db.$queryRaw<Array<{ kind: string; due: string; n: number }>>`
      SELECT kind, payload->>'due_at' AS due, count(*)::int AS n FROM jobs
      WHERE payload ? 'due_at' GROUP BY 1, 2 HAVING count(*) > 1`;
    expect(twice).toEqual([]);

    // Signing out on one ends the session on the other at once.
    expect((await call(a, token, 'POST', '/api/logout')).status).toBe(200);
    expect((await call(b, token, 'GET', '/api/check-session')).status).toBe(401);
    expect((await call(a, token, 'GET', '/api/check-session')).status).toBe(401);
    await Promise.all([a.stop(), b.stop()]);
  });

  it('a server killed mid-upload leaves nothing half-written; the other keeps serving', {
    timeout: 360_000,
  }, async () => {
    const [a, b] = await Promise.all([server('all'), server('all')]);
    const token = await signIn(b);
    const kept = Buffer.from(`served throughout ${randomBytes(4).toString('hex')}\n`);
    const keptId = await upload(b, token, kept, 'kept.txt');
    const keysBefore = await s3.keys();
    const filesBefore = await t.db.file.count();

    // 24 MiB of a 64 MiB upload reach the first server (parts of it go up to S3), then it dies.
    const boundary = 'killedboundary';
    const req = http.request(`${a.url}/api/new-upload`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': `multipart/form-data; boundary=${boundary}`,
        'content-length': String(64 * 1024 * 1024),
      },
    });
    req.on('error', () => {});
    req.write(
      `--${boundary}\r\nContent-Disposition: form-data; name="folder_id"\r\n\r\n${cat}\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="half.bin"\r\n` +
        'Content-Type: application/octet-stream\r\n\r\n',
    );
    const chunk = randomBytes(256 * 1024);
    for (let sent = 0; sent < 24 * 1024 * 1024; sent += chunk.length) {
      if (!req.write(chunk)) await new Promise((r) => req.once('drain', r));
    }
    await new Promise((r) => setTimeout(r, 500));
    const exited = new Promise((r) => a.proc.once('exit', r));
    a.proc.kill('SIGKILL');
    await exited;
    req.destroy();

    expect(await t.db.file.count()).toBe(filesBefore);
    expect(await s3.keys()).toEqual(keysBefore);
    const still = await call(b, token, 'GET', `/api/download-files/${keptId}`);
    expect(Buffer.from(await still.arrayBuffer()).equals(kept)).toBe(true);
    const after = Buffer.from(`uploaded after the kill ${randomBytes(4).toString('hex')}\n`);
    const afterId = await upload(b, token, after, 'after.txt');
    expect(
      Buffer.from(await (await call(b, token, 'GET', `/api/download-files/${afterId}`)).arrayBuffer()),
    ).toEqual(after);
    await b.stop();
  });

  it('QUIRE_ROLE=api with a worker: the api enqueues, the worker runs it', { timeout: 360_000 }, async () => {
    const [api, worker] = await Promise.all([server('api'), server('worker')]);
    expect((await call(worker, null, 'GET', '/api/health')).status).toBe(200);
    expect((await call(worker, null, 'POST', '/api/login', { username: user.username })).status).toBe(404);

    const token = await signIn(api);
    const content = Buffer.from(`read by the worker ${randomBytes(4).toString('hex')}\n`);
    const id = await upload(api, token, content, 'for-the-worker.txt');
    expect(await s3.keys()).toContain(
      `${sha(content).slice(0, 2)}/${sha(content).slice(2, 4)}/${sha(content)}`,
    );
    expect(await textRead(api, token, id)).toBe('done');
    expect(await extractJobs([id])).toEqual([{ status: 'done', attempts: 1 }]);
    await Promise.all([api.stop(), worker.stop()]);
  });
});
