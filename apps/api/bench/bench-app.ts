// The real app on a throw-away embedded PostgreSQL, for the benches: a fresh folder, a
// migrated database, the app built on it. `close()` takes it all down again (a kept folder
// stays, its database stopped).
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createDatabase, createDb, migrate, startEmbeddedPostgres, withDatabase } from '@quire/db';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';

export async function startBenchApp(
  name: string,
  env: Record<string, string> = {},
  /** `keep`: a folder whose database is used and kept (made on the first run), not a throw-away one. */
  options: { keep?: string } = {},
) {
  const dir = options.keep
    ? path.resolve(options.keep)
    : await mkdtemp(path.join(os.tmpdir(), `quire-bench-${name}-`));
  await mkdir(dir, { recursive: true });
  const pgServer = await startEmbeddedPostgres({ dataDir: path.join(dir, 'pg') });
  const stop = async () => {
    await pgServer.stop();
    if (!options.keep) await rm(dir, { recursive: true, force: true });
  };
  try {
    await createDatabase(pgServer.adminUrl, 'bench');
    const url = withDatabase(pgServer.adminUrl, 'bench');
    await migrate(url);
    const db = createDb(url);
    const config = loadConfig({
      LOG_LEVEL: 'silent',
      DATA_DIR: path.join(dir, 'data'),
      LOGIN_RATE_LIMIT: '100000',
      ...env,
    });
    await mkdir(config.storageDir, { recursive: true });
    const app = await buildApp({ config, db });
    return {
      dir,
      url,
      db,
      config,
      app,
      close: async () => {
        try {
          await app.close();
          await db.$disconnect();
        } finally {
          await stop();
        }
      },
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
