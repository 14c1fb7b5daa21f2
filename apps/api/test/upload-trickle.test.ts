import { existsSync, readdirSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from './app.js';
import { multipart } from './multipart.js';
import { uploader } from './seed.js';

// An upload whose body trickles in (issue 23, point 13), over a real socket: below
// REQUEST_MIN_BYTES_PER_SEC once the grace period is over, the request is answered 408 and
// closed, nothing is kept; a slow client above the rate is served.

let t: TestContext;
let port: number;
let token: string;
let folder: number;
beforeAll(async () => {
  t = await createTestApp({ REQUEST_MIN_BYTES_PER_SEC: '2000', REQUEST_MIN_RATE_GRACE_MS: '1000' });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as net.AddressInfo).port;
  ({
    token,
    category: { id: folder },
  } = await uploader(t));
});
afterAll(() => t.close());

const tmpFiles = () => {
  const dir = path.join(t.app.deps.config.storageDir, 'tmp');
  return existsSync(dir) ? readdirSync(dir) : [];
};

/** Sends an upload of `size` bytes, `step` bytes every `everyMs`; resolves with what came back. */
function trickle(size: number, step: number, everyMs: number) {
  const body = multipart({
    folder_id: String(folder),
    file: { content: Buffer.alloc(size, 'a'), filename: 'slow.txt', contentType: 'text/plain' },
  });
  const head =
    'POST /api/new-upload HTTP/1.1\r\n' +
    `Host: 127.0.0.1:${port}\r\n` +
    `Authorization: Bearer ${token}\r\n` +
    `Content-Type: ${body.headers['content-type']}\r\n` +
    `Content-Length: ${body.payload.length}\r\n\r\n`;
  return new Promise<{ response: string; ms: number; sent: number }>((resolve) => {
    const started = Date.now();
    let sent = 0;
    let timer: NodeJS.Timeout | undefined;
    const socket = net.connect(port, '127.0.0.1', () => {
      socket.write(head);
      timer = setInterval(() => {
        if (sent >= body.payload.length || socket.destroyed) return clearInterval(timer);
        socket.write(body.payload.subarray(sent, sent + step));
        sent += step;
      }, everyMs);
    });
    let response = '';
    socket.on('data', (d) => {
      response += d.toString();
      // A served request stays open (keep-alive): its answer is enough.
      if (/\r\n\r\n\{.*\}$/s.test(response)) socket.end();
    });
    socket.on('error', () => {});
    socket.on('close', () => {
      clearInterval(timer);
      resolve({ response, ms: Date.now() - started, sent });
    });
  });
}

describe('a request body below the minimum rate', () => {
  it('is answered 408 and closed soon after the grace period, and nothing is kept', async () => {
    const blobs = await t.db.blob.count();
    const files = await t.db.file.count();
    // 10 bytes every 100 ms (100 B/s) of a 20 kB upload: it would take 200 s.
    const { response, ms, sent } = await trickle(20_000, 10, 100);
    expect(response).toMatch(/^HTTP\/1\.1 408 /);
    expect(response).toContain('request.too_slow');
    expect(ms).toBeGreaterThanOrEqual(1000);
    expect(ms).toBeLessThan(5000);
    expect(sent).toBeLessThan(20_000);
    await expect.poll(() => tmpFiles()).toEqual([]);
    expect(await t.db.blob.count()).toBe(blobs);
    expect(await t.db.file.count()).toBe(files);
    expect((await fetch(`http://127.0.0.1:${port}/api/health`)).status).toBe(200);
  });

  it('does not end a slow upload that keeps above the rate', async () => {
    // 1000 bytes every 100 ms (10 kB/s) of a 20 kB upload: about 2 s, past the grace period.
    const { response, ms } = await trickle(20_000, 1000, 100);
    expect(response).toMatch(/^HTTP\/1\.1 200 /);
    expect(ms).toBeGreaterThan(1500);
  });
});
