import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BlobStore, createBlobStore } from './blob-store.js';
import type { StoredBlob } from './content-meter.js';
import { contentDisposition, parseRange, sendBlob } from './send-file.js';

describe('contentDisposition', () => {
  it('gives an ASCII fallback and the UTF-8 name (RFC 6266), never a header injection', () => {
    expect(contentDisposition('attachment', 'Rapport été 2026.pdf')).toBe(
      `attachment; filename="Rapport _t_ 2026.pdf"; filename*=UTF-8''Rapport%20%C3%A9t%C3%A9%202026.pdf`,
    );
    const evil = contentDisposition('attachment', 'a"\r\nSet-Cookie: x=1;../b.txt');
    expect(evil).not.toMatch(/[\r\n]/);
    expect(evil).toContain('filename="a___Set-Cookie: x=1;.._b.txt"');
    expect(contentDisposition('inline', '')).toBe(`inline; filename="file"; filename*=UTF-8''file`);
  });
});

describe('parseRange', () => {
  it('reads one range, a suffix, an open end; refuses the unsatisfiable; ignores several', () => {
    expect(parseRange(undefined, 100)).toBeNull();
    expect(parseRange('bytes=0-9', 100)).toEqual({ start: 0, end: 9 });
    expect(parseRange('bytes=90-', 100)).toEqual({ start: 90, end: 99 });
    expect(parseRange('bytes=-10', 100)).toEqual({ start: 90, end: 99 });
    expect(parseRange('bytes=50-500', 100)).toEqual({ start: 50, end: 99 });
    expect(parseRange('bytes=100-', 100)).toBe('bad');
    expect(parseRange('bytes=9-3', 100)).toBe('bad');
    expect(parseRange('bytes=-0', 100)).toBe('bad');
    expect(parseRange('items=1-2', 100)).toBe('bad');
    expect(parseRange('bytes=0-1,5-6', 100)).toBeNull();
  });
});

describe('sendBlob over a socket', () => {
  // Many of the download's 512 KiB chunks and an odd tail, more than the socket buffers of
  // both ends hold, through a real HTTP server: the bytes must arrive whole and in order
  // although the read buffers are reused.
  const content = randomBytes(24 * 1024 * 1024 + 12_345);
  const app = Fastify({ forceCloseConnections: true });
  let dir = '';
  let blobs: BlobStore;
  let blob: StoredBlob;
  let port = 0;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'quire-send-file-'));
    blobs = createBlobStore(dir);
    blob = await blobs.put(content);
    app.addHook('onRequest', async (_req, reply) => {
      reply.header('x-content-type-options', 'nosniff');
    });
    app.get('/f', (req, reply) =>
      sendBlob(blobs, req, reply, {
        blobId: blob.id,
        size: blob.size,
        mimeType: 'application/octet-stream',
        filename: 'report.bin',
      }),
    );
    await app.listen({ host: '127.0.0.1', port: 0 });
    port = (app.server.address() as { port: number }).port;
  });
  afterAll(async () => {
    await app.close();
    await rm(dir, { recursive: true, force: true });
  });
  const get = (headers: Record<string, string> = {}, method = 'GET') =>
    new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
      http
        .request({ host: '127.0.0.1', port, path: '/f', method, headers }, (res) => {
          const parts: Buffer[] = [];
          // A slow reader: the socket fills, so the server's writes wait for it with the
          // buffers they hold (which must not be read into again meanwhile).
          res.once('data', () => {
            res.pause();
            setTimeout(() => res.resume(), 100);
          });
          res.on('data', (d: Buffer) => parts.push(d));
          res.on('end', () =>
            resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(parts) }),
          );
        })
        .on('error', reject)
        .end();
    });
  const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

  it('sends the whole content with the headers set on the reply', async () => {
    const res = await get();
    expect(res.status).toBe(200);
    expect(res.headers['content-length']).toBe(String(content.length));
    expect(res.headers.etag).toBe(`"${blob.id}"`);
    expect(res.headers['content-security-policy']).toBe('sandbox');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(sha(res.body)).toBe(sha(content));
  });

  it('sends a range that spans chunks, and nothing but headers to HEAD', async () => {
    const [start, end] = [500_000, 20_400_000];
    const part = await get({ range: `bytes=${start}-${end}` });
    expect(part.status).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes ${start}-${end}/${content.length}`);
    expect(part.body.equals(content.subarray(start, end + 1))).toBe(true);
    const head = await get({}, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.headers['content-length']).toBe(String(content.length));
    expect(head.body.length).toBe(0);
  });

  it('stops when the client goes away half way, and serves the next download whole', async () => {
    await new Promise<void>((resolve, reject) => {
      const req = http.get({ host: '127.0.0.1', port, path: '/f' }, (res) => {
        res.once('data', () => req.destroy());
        res.on('close', () => resolve());
      });
      req.on('error', () => resolve());
      setTimeout(() => reject(new Error('no answer')), 5000).unref();
    });
    const again = await get();
    expect(sha(again.body)).toBe(sha(content));
  });
});
