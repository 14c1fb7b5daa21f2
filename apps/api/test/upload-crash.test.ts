import { existsSync, readdirSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from './app.js';
import { childServersKilledAfterEach } from './child-server.js';
import { uploader } from './seed.js';
import { until } from './until.js';

// A server killed with SIGKILL while an upload streams in (no chance to clean up): after a
// restart there is no row of that upload, no blob of it in the store and no temp file.

let t: TestContext;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());
const startServer = childServersKilledAfterEach(() => t.databaseUrl);

const filesIn = (dir: string) =>
  existsSync(dir) ? readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()) : [];

describe('a server killed mid-upload', () => {
  it('leaves no row, no blob and (after a restart) no temp file of that upload', {
    timeout: 120_000,
  }, async () => {
    const { token, category } = await uploader(t);
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'quire-crash-'));
    const blobs = path.join(dataDir, 'blobs');
    const tmp = path.join(blobs, 'tmp');
    const filesBefore = await t.db.file.count();

    const first = await startServer(dataDir);
    // A first call, so the upload below does not wait on a cold start.
    const warm = await fetch(`http://127.0.0.1:${first.port}/api/check-session`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(warm.status).toBe(200);
    const boundary = 'crashboundary';
    const req = http.request({
      host: '127.0.0.1',
      port: first.port,
      method: 'POST',
      path: '/api/new-upload',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': `multipart/form-data; boundary=${boundary}`,
        'content-length': String(64 * 1024 * 1024),
      },
    });
    req.on('error', () => {});
    let answer = '';
    req.on('response', (res) => res.on('data', (d) => (answer += d)));
    req.write(
      `--${boundary}\r\nContent-Disposition: form-data; name="folder_id"\r\n\r\n${category.id}\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="half.bin"\r\n` +
        'Content-Type: application/octet-stream\r\n\r\n',
    );
    // Stream the file in until its temp file has grown, then kill the server mid-stream.
    const chunk = Buffer.alloc(64 * 1024, 0x5a);
    const deadline = Date.now() + 30_000;
    let sent = 0;
    while (filesIn(tmp).length === 0 || sent < 1024 * 1024) {
      req.write(chunk);
      sent += chunk.length;
      await new Promise((r) => setTimeout(r, 20));
      if (Date.now() > deadline || sent > 60 * 1024 * 1024)
        throw new Error(`the upload never reached the store (answer: ${answer || 'none'})`);
    }
    expect(filesIn(tmp).length).toBe(1);
    const exited = new Promise((r) => first.proc.once('exit', r));
    first.proc.kill('SIGKILL');
    await exited;
    req.destroy();

    expect(await t.db.file.count()).toBe(filesBefore);
    const stored = () => filesIn(blobs).filter((e) => !e.parentPath.endsWith(`${path.sep}tmp`));
    expect(stored()).toEqual([]);

    // The restart sweeps the dead server's temp file.
    const second = await startServer(dataDir);
    await until(() => filesIn(tmp).length === 0, 20_000, 'the temp folder to be empty');
    expect(stored()).toEqual([]);
    expect(await t.db.file.count()).toBe(filesBefore);
    expect(await t.db.fileVersion.count({ where: { originalName: 'half.bin' } })).toBe(0);
    second.proc.kill('SIGKILL');
  });
});
