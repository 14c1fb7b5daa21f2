import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { type OpenDatabase, openDatabase } from '../src/database.js';
import { bearer } from './factories.js';
import { person } from './seed.js';

// PostgreSQL killed under a running server (issue 23, point 15), on an embedded cluster of
// this test's own, opened as a start opens it (openDatabase): while it is away every call,
// health included, answers 503 saying so; the watchdog starts it again and the server
// answers as before, with no restart of its own.

let dir: string;
let database: OpenDatabase;
let app: FastifyInstance;
let token = '';

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'quire-outage-'));
  const config = loadConfig({
    DATA_DIR: dir,
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    QUIRE_ROLE: 'api',
    LOGIN_RATE_LIMIT: '1000',
  });
  database = await openDatabase(config);
  app = await buildApp({ config, db: database.db });
  await app.ready();
  token = (await person({ app, db: database.db })).token;
}, 120_000);
afterAll(async () => {
  await app?.close();
  await database?.close();
  await rm(dir, { recursive: true, force: true });
});

const health = () => app.inject({ method: 'GET', url: '/api/health' });
const notifications = () =>
  app.inject({ method: 'GET', url: '/api/get-notification', headers: bearer(token) });

function killPostgres() {
  const pid = Number(readFileSync(path.join(dir, 'postgres', 'postmaster.pid'), 'utf8').split('\n')[0]);
  process.kill(pid, 'SIGKILL');
  return pid;
}

describe('the embedded PostgreSQL killed under a running server', () => {
  it('answers 503 while it is away, then 200 again once the watchdog has started it', async () => {
    expect((await health()).statusCode).toBe(200);
    expect((await notifications()).statusCode).toBe(200);
    killPostgres();

    // (a backend may answer one more statement before it notices its postmaster is gone)
    await expect.poll(async () => (await health()).statusCode, { timeout: 10_000, interval: 200 }).toBe(503);
    const down = await health();
    expect(down.statusCode, down.body).toBe(503);
    expect(down.json()).toMatchObject({ database: 'down' });
    const refused = await notifications();
    expect(refused.statusCode, refused.body).toBe(503);
    expect(refused.json()).toMatchObject({
      code: 'database.unavailable',
      message: 'The database is not reachable; try again in a moment',
    });

    const started = Date.now();
    await expect.poll(async () => (await health()).statusCode, { timeout: 45_000, interval: 500 }).toBe(200);
    expect(Date.now() - started).toBeLessThan(45_000);
    const again = await notifications();
    expect(again.statusCode, again.body).toBe(200);
  }, 90_000);
});
