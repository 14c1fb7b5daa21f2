import { mkdir } from 'node:fs/promises';
import { bootstrap } from './bootstrap.js';
import { type Config, loadConfig } from './config.js';
import { type OpenDatabase, openDatabase } from './database.js';
import { startupFailureMessage } from './startup-errors.js';

let database: OpenDatabase | undefined;
let config: Config | undefined;

async function main() {
  config = loadConfig();
  // The app's modules (most of the server) are read and compiled while PostgreSQL starts
  // in its own processes: a start waits for the longer of the two, not for their sum. Not
  // before its programs run: compiling holds the one JavaScript thread, and the few steps
  // that lead to them (files, a free port) would wait behind it (measured: PostgreSQL
  // started 3 s into a start instead of 0.2 s).
  let appModule: Promise<typeof import('./app.js')> | undefined;
  const loadApp = () => {
    appModule ??= import('./app.js');
    appModule.catch(() => {}); // a failure to load is reported where it is awaited, below
    return appModule;
  };
  if (config.DATABASE_URL) loadApp();
  if (config.STORAGE === 'folder') await mkdir(config.storageDir, { recursive: true });
  database = await openDatabase(config, { onSpawned: loadApp });
  const { db, applied } = database;
  const created = await bootstrap(db, config);
  const { buildApp } = await loadApp();
  const app = await buildApp({ config, db, serveWeb: true });
  if (applied.length) app.log.info({ applied }, 'applied migrations');

  for (const account of created.filter((a) => a.generated)) {
    // Printed once, on the console only: never logged as a structured field.
    process.stdout.write(
      `\n  First start: created "${account.username}" with the password  ${account.password}\n  Keep it now: it is not shown again.\n\n`,
    );
  }

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'stopping');
    await app.close();
    await database?.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));

  await app.listen({ port: config.PORT, host: config.HOST });
}

main().catch(async (err) => {
  console.error(`\n  ${startupFailureMessage(err, config && { host: config.HOST, port: config.PORT })}\n`);
  if (config?.LOG_LEVEL === 'debug' || config?.LOG_LEVEL === 'trace') console.error(err);
  await database?.close().catch(() => {});
  process.exit(1);
});
