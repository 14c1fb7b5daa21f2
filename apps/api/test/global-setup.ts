import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createDatabase, migrate, startEmbeddedPostgres, withDatabase } from '@quire/db';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    pgAdminUrl: string;
    templateDb: string;
  }
}

// One PostgreSQL cluster per test run, and one migrated template database; each test file
// gets its own database copied from the template (CREATE DATABASE … TEMPLATE), see app.ts.
export default async function setup(project: TestProject) {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'quire-test-pg-'));
  const pg = await startEmbeddedPostgres({ dataDir: path.join(dir, 'data') });
  const templateDb = 'quire_template';
  await createDatabase(pg.adminUrl, templateDb);
  await migrate(withDatabase(pg.adminUrl, templateDb));
  project.provide('pgAdminUrl', pg.adminUrl);
  project.provide('templateDb', templateDb);
  return async () => {
    await pg.stop();
    await rm(dir, { recursive: true, force: true });
  };
}
