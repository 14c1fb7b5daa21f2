import path from 'node:path';
import {
  createDatabase,
  createDb,
  type Db,
  type EmbeddedDatabase,
  migrate,
  startEmbeddedPostgres,
  withDatabase,
} from '@quire/db';
import type { Config } from './config.js';

export interface OpenDatabase {
  db: Db;
  /** Its URL (for tools that talk to PostgreSQL directly: the bulk seed). */
  url: string;
  /** Migrations applied by this start. */
  applied: string[];
  /** Closes the pool and, when it was started here, the embedded PostgreSQL. */
  close(): Promise<void>;
}

/** Milliseconds between two looks at the embedded PostgreSQL's process. */
const EMBEDDED_WATCH_MS = 2000;

/**
 * The database of a start: DATABASE_URL, or the embedded PostgreSQL under DATA_DIR/postgres
 * (created on first use), migrated to the latest migration.
 */
export async function openDatabase(
  config: Config,
  /** Called once the embedded PostgreSQL's programs run (never with DATABASE_URL). */
  { onSpawned }: { onSpawned?: () => void } = {},
): Promise<OpenDatabase> {
  let embedded: EmbeddedDatabase | undefined;
  let databaseUrl = config.DATABASE_URL;
  try {
    if (!databaseUrl) {
      embedded = await startEmbeddedPostgres({
        dataDir: path.join(config.dataDir, 'postgres'),
        port: config.EMBEDDED_PG_PORT,
        // A PostgreSQL killed under the server is started again (calls answer 503 meanwhile).
        watchMs: EMBEDDED_WATCH_MS,
        onWatch: (message) => process.stderr.write(`${new Date().toISOString()} ${message}\n`),
        ...(onSpawned ? { onSpawned } : {}),
      });
      await createDatabase(embedded.adminUrl, 'quire');
      databaseUrl = withDatabase(embedded.adminUrl, 'quire');
    }
    const applied = await migrate(databaseUrl);
    const db = createDb(databaseUrl);
    return {
      db,
      url: databaseUrl,
      applied,
      close: async () => {
        await db.$disconnect();
        await embedded?.stop();
      },
    };
  } catch (err) {
    await embedded?.stop().catch(() => {});
    throw err;
  }
}
