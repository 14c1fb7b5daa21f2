import { mkdir } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestContext } from './app.js';
import { bearer } from './factories.js';
import { seededApp } from './seed.js';

// GET /api/health (issue 23): anyone, the Docker health check included, learns whether Quire
// works and which part fails; the disks' sizes and free bytes only a signed-in admin or a
// monitor with HEALTH_TOKEN.

const HEALTH_TOKEN = 'monitor-token-0123456789abcdef';
let t: TestContext;
let admin = '';
let staff = '';
beforeAll(async () => {
  const world = await seededApp(
    { users: { admin: { accessType: 'File Control Admin' }, staff: {} } },
    { HEALTH_TOKEN },
  );
  t = world.t;
  admin = world.users.admin.token;
  staff = world.users.staff.token;
  // server.ts creates the blob store's folder at start; a test app has none until an upload.
  await mkdir(t.app.deps.config.storageDir, { recursive: true });
});
afterAll(() => t.close());

const health = (headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'GET', url: '/api/health', headers });

describe('GET /api/health', () => {
  it('tells anyone the status and the failing parts, never the sizes', async () => {
    for (const headers of [
      {},
      bearer(staff),
      bearer('not-the-monitor-token-at-all'),
      bearer(`${HEALTH_TOKEN}x`),
    ]) {
      const res = await health(headers);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ status: 'ok', database: 'up', failing: [] });
      expect(res.body).not.toMatch(/bytes/);
    }
  });

  it("shows each disk's free and total bytes to a signed-in admin and to the HEALTH_TOKEN", async () => {
    for (const headers of [bearer(admin), bearer(HEALTH_TOKEN)]) {
      const res = await health(headers);
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(body).toMatchObject({ status: 'ok', database: 'up', failing: [] });
      for (const disk of [body.storage.blobs, body.storage.data_dir]) {
        expect(disk.free_bytes).toBeGreaterThan(0);
        expect(disk.total_bytes).toBeGreaterThanOrEqual(disk.free_bytes);
      }
    }
  });

  it('says degraded, and which part, when a disk cannot be read (still 200)', async () => {
    const config = t.app.deps.config;
    const real = config.storageDir;
    config.storageDir = `${real}-that-does-not-exist`;
    try {
      const res = await health();
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        status: 'degraded',
        database: 'up',
        failing: ['blobs'],
        message: 'Nearly full or unreadable: the file store',
      });
      expect((await health(bearer(HEALTH_TOKEN))).json().storage.blobs).toBeNull();
    } finally {
      config.storageDir = real;
    }
  });
});
