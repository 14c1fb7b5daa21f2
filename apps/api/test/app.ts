import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createDatabase, createDb, type Db, withDatabase } from '@quire/db';
import type { FastifyInstance } from 'fastify';
import { inject } from 'vitest';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';

export interface TestContext {
  app: FastifyInstance;
  db: Db;
  databaseUrl: string;
  /** The DATA_DIR the app uses (a temporary folder unless `env.DATA_DIR` names one). */
  dataDir: string;
  /** Waits for work the app runs after answering (reset mails, registrations). */
  settle(): Promise<void>;
  close(): Promise<void>;
}

/**
 * The real app on a database of its own, copied from the migrated template. Call once per
 * test file (beforeAll); `env` overrides configuration variables; `now` replaces the clock.
 * The job runner does not work in the background (QUIRE_ROLE=api) unless `env` says
 * QUIRE_ROLE=all or worker: tests run due jobs themselves with `app.jobs.runDue()`.
 */
export async function createTestApp(
  env: Record<string, string> = {},
  options: {
    now?: () => Date;
    /** Extra routes for a test of the pipeline itself (registered before ready). */
    routes?: (app: FastifyInstance) => Promise<void>;
    logStream?: { write(line: string): void };
  } = {},
): Promise<TestContext> {
  const adminUrl = inject('pgAdminUrl');
  const name = `t_${randomBytes(6).toString('hex')}`;
  await createDatabase(adminUrl, name, inject('templateDb'));
  const databaseUrl = withDatabase(adminUrl, name);
  const db = createDb(databaseUrl, { poolSize: 5 });
  const ownDataDir = env.DATA_DIR ? null : await mkdtemp(path.join(os.tmpdir(), 'quire-test-data-'));
  const dataDir = env.DATA_DIR ?? (ownDataDir as string);
  const config = loadConfig({
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    DATA_DIR: dataDir,
    LOGIN_RATE_LIMIT: '1000',
    QUIRE_ROLE: 'api',
    ...env,
  });
  const app = await buildApp({ config, db, now: options.now, logStream: options.logStream });
  if (options.routes) await app.register(options.routes);
  await app.ready();
  return {
    app,
    db,
    databaseUrl,
    dataDir,
    settle: () => app.background.drain(),
    close: async () => {
      await app.close();
      await db.$disconnect();
      // The temporary DATA_DIR (blobs, secret key) goes with the app; a given one stays.
      if (ownDataDir) await rm(ownDataDir, { recursive: true, force: true });
    },
  };
}
