import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { notFoundHandler, registerWeb } from './web.js';

// A built client in miniature: index.html, a hashed asset with its brotli and gzip copies,
// and a source map that must never be served.
const SCRIPT = `console.log(${JSON.stringify('x'.repeat(4000))});`;
let dist: string;
let app: FastifyInstance;

beforeAll(async () => {
  dist = mkdtempSync(path.join(os.tmpdir(), 'quire-web-'));
  mkdirSync(path.join(dist, 'assets'));
  writeFileSync(path.join(dist, 'index.html'), '<!doctype html><div id="root"></div>');
  writeFileSync(path.join(dist, 'login.html'), '<!doctype html><div id="root"><form>Sign in</form></div>');
  writeFileSync(path.join(dist, 'assets/app-abc123.js'), SCRIPT);
  writeFileSync(path.join(dist, 'assets/app-abc123.js.br'), brotliCompressSync(SCRIPT));
  writeFileSync(path.join(dist, 'assets/app-abc123.js.gz'), gzipSync(SCRIPT));
  writeFileSync(path.join(dist, 'assets/app-abc123.js.map'), '{"version":3}');
  writeFileSync(
    path.join(dist, '.preload.json'),
    JSON.stringify({ '/': ['/assets/home-1.js'], '/login': ['/assets/login-1.js'] }),
  );
  app = Fastify();
  const served = await registerWeb(app, dist);
  app.setNotFoundHandler(notFoundHandler(served));
  await app.ready();
});

afterAll(async () => {
  await app.close();
  rmSync(dist, { recursive: true, force: true });
});

const get = (url: string, encoding?: string) =>
  app.inject({ method: 'GET', url, headers: encoding ? { 'accept-encoding': encoding } : {} });

describe('the web client files', () => {
  it('sends the brotli copy to a browser that takes it, else gzip, else the file itself', async () => {
    const br = await get('/assets/app-abc123.js', 'gzip, deflate, br');
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.rawPayload.length).toBeLessThan(SCRIPT.length / 10);

    const gz = await get('/assets/app-abc123.js', 'gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');

    const plain = await get('/assets/app-abc123.js');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(SCRIPT);
    expect(plain.headers['content-type']).toMatch(/javascript/);
  });

  it('caches hashed assets for good and revalidates the page itself', async () => {
    const asset = await get('/assets/app-abc123.js', 'br');
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const index = await get('/admin/users');
    expect(index.statusCode).toBe(200);
    expect(index.body).toContain('<div id="root">');
    expect(index.headers['cache-control']).toBe('no-cache');
  });

  it('names the chunks a page needs beyond the entry, so that they load with it', async () => {
    const home = await get('/');
    expect(home.headers.link).toBe('</assets/home-1.js>; rel=modulepreload; crossorigin');
    expect((await get('/admin/users')).headers.link).toBeUndefined();
    // The prerendered sign-in page asks for its chunks once it has painted (after-paint.js).
    expect((await get('/login')).headers.link).toBeUndefined();
    expect((await get('/.preload.json')).statusCode).toBe(404);
  });

  it('sends the sign-in page as the HTML the build rendered, every other page as index.html', async () => {
    const login = await get('/login?redirect=%2Fadmin%2Fusers');
    expect(login.statusCode).toBe(200);
    expect(login.body).toContain('<form>Sign in</form>');
    expect(login.headers['cache-control']).toBe('no-cache');
    expect((await get('/admin/users')).body).not.toContain('<form>');
  });

  it('answers the root and unknown pages with index.html, and nothing outside the folder', async () => {
    const root = await get('/');
    expect(root.statusCode).toBe(200);
    expect(root.body).toContain('<div id="root">');
    expect((await get('/assets/')).body).toContain('<div id="root">');
    expect((await get('/assets')).body).toContain('<div id="root">');
    expect((await get('/assets/missing-1.js')).statusCode).toBe(404);
    const outside = await get('/..%2f..%2f..%2fetc%2fpasswd');
    expect(outside.body).not.toContain('root:');
    expect((await get('/api/no-such-call')).json()).toMatchObject({ code: 'not_found' });
  });

  it('never serves a source map', async () => {
    const map = await get('/assets/app-abc123.js.map');
    expect(map.statusCode).toBe(404);
    expect(map.body).not.toContain('"version"');
  });
});
