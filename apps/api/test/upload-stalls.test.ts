import { existsSync, readdirSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from './app.js';
import { multipart, tinyPng } from './multipart.js';
import { person } from './seed.js';

// Uploads cut off or stalled, over a real socket (app.inject cannot stall): each ends with a
// 400 or a closed connection, leaves no temp file, and the server keeps answering.

let t: TestContext;
let port: number;
let token: string;
let storage: string;
beforeAll(async () => {
  t = await createTestApp({ REQUEST_IDLE_TIMEOUT_MS: '1500' });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as net.AddressInfo).port;
  storage = t.app.deps.config.storageDir;
  ({ token } = await person(t, { accessType: 'General staff' }));
});
afterAll(() => t.close());

const tmpFiles = () => (existsSync(path.join(storage, 'tmp')) ? readdirSync(path.join(storage, 'tmp')) : []);
const blobCount = () => t.db.blob.count();

/**
 * Sends the head and the first `sent` bytes of a signature upload; `then` decides what comes
 * next: `chunked-end` ends the HTTP request properly (chunked) with the form cut off,
 * `half-close` stops sending short of Content-Length, `stall` sends nothing more.
 */
function partialUpload(sent: number, then: 'chunked-end' | 'half-close' | 'stall') {
  const body = multipart({
    file: { content: Buffer.concat([tinyPng(), Buffer.alloc(200_000, 5)]), filename: 's.png' },
  });
  const head =
    'POST /api/upload-user-signature HTTP/1.1\r\n' +
    `Host: 127.0.0.1:${port}\r\n` +
    `Authorization: Bearer ${token}\r\n` +
    `Content-Type: ${body.headers['content-type']}\r\n` +
    (then === 'chunked-end'
      ? 'Transfer-Encoding: chunked\r\n\r\n'
      : `Content-Length: ${body.payload.length}\r\n\r\n`);
  return new Promise<{ response: string; closedAfterMs: number }>((resolve, reject) => {
    const started = Date.now();
    const socket = net.connect(port, '127.0.0.1', () => {
      socket.write(head);
      const part = body.payload.subarray(0, sent);
      if (then === 'chunked-end')
        socket.write(`${part.length.toString(16)}\r\n${part.toString('latin1')}\r\n0\r\n\r\n`, 'latin1');
      else socket.write(part);
      if (then === 'half-close') socket.end();
    });
    let response = '';
    socket.on('data', (d) => {
      response += d.toString();
    });
    socket.on('error', reject);
    socket.on('close', () => resolve({ response, closedAfterMs: Date.now() - started }));
  });
}

async function stillAnswers() {
  const res = await fetch(`http://127.0.0.1:${port}/api/health`);
  expect(res.status).toBe(200);
}

describe('an upload cut off inside the file part', () => {
  it('answers 400 naming the cut-off form when the request ends inside the file, and keeps nothing', async () => {
    const blobs = await blobCount();
    const { response } = await Promise.race([
      partialUpload(60_000, 'chunked-end'),
      new Promise<never>((_, reject) => setTimeout(() => reject(new Error('no answer within 1.4 s')), 1400)),
    ]);
    expect(response).toMatch(/^HTTP\/1\.1 400 /);
    expect(response).toContain('upload.malformed');
    await expect.poll(() => tmpFiles()).toEqual([]);
    expect(await blobCount()).toBe(blobs);
    await stillAnswers();
  });

  it('answers 400 at once when the client stops short of its Content-Length, and keeps nothing', async () => {
    const blobs = await blobCount();
    const { response, closedAfterMs } = await partialUpload(60_000, 'half-close');
    expect(response).toMatch(/^HTTP\/1\.1 400 /);
    expect(closedAfterMs).toBeLessThan(1400);
    // the temp file goes with the failed stream
    await expect.poll(() => tmpFiles()).toEqual([]);
    expect(await blobCount()).toBe(blobs);
    await stillAnswers();
  });

  it('closes a connection that stalls mid-file after REQUEST_IDLE_TIMEOUT_MS, and keeps nothing', async () => {
    const blobs = await blobCount();
    const { closedAfterMs } = await partialUpload(60_000, 'stall');
    expect(closedAfterMs).toBeGreaterThanOrEqual(1400);
    expect(closedAfterMs).toBeLessThan(10_000);
    await expect.poll(() => tmpFiles()).toEqual([]);
    expect(await blobCount()).toBe(blobs);
    await stillAnswers();
  });

  it('handles many cut-off uploads without leaving temp files or slowing other calls', async () => {
    await Promise.all(Array.from({ length: 10 }, (_, i) => partialUpload(1000 + i * 5000, 'half-close')));
    await expect.poll(() => tmpFiles()).toEqual([]);
    await stillAnswers();
  });
});
