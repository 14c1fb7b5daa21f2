// A Quire API server in a process of its own, for tests that kill it mid-request
// (upload-crash.test.ts) or run several servers on one database (two-servers.test.ts); they
// start it through test/child-server.ts:
//
//   CHILD_DATABASE_URL=… CHILD_DATA_DIR=… [CHILD_CONFIG='{"QUIRE_ROLE":"all",…}'] node --import tsx test/upload-server-child.ts
//   node --import tsx test/upload-server-child.ts <database url> <data folder>
//
// CHILD_CONFIG (JSON) adds or overrides configuration variables. It serves the real app on a
// free loopback port and says "listening <port>" on stdout.
import { createDb } from '@quire/db';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';

const url = process.env.CHILD_DATABASE_URL ?? process.argv[2];
const dataDir = process.env.CHILD_DATA_DIR ?? process.argv[3];
if (!url || !dataDir) throw new Error('CHILD_DATABASE_URL and CHILD_DATA_DIR must be set');
const db = createDb(url, { poolSize: 3 });
const app = await buildApp({
  config: loadConfig({
    LOG_LEVEL: process.env.CHILD_LOG_LEVEL ?? 'silent',
    DATA_DIR: dataDir,
    QUIRE_ROLE: 'api',
    APP_SECRET: 'child-server-secret-0123456789',
    ...(JSON.parse(process.env.CHILD_CONFIG ?? '{}') as Record<string, string>),
  }),
  db,
});
await app.listen({ host: '127.0.0.1', port: 0 });
const address = app.server.address();
process.stdout.write(`listening ${typeof address === 'object' && address ? address.port : 0}\n`);
