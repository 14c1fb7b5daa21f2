// pnpm db:diff NAME — writes prisma/migrations/NNNN_NAME/migration.sql from the change in
// prisma/schema.prisma, using a throw-away embedded PostgreSQL as the scratch database.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createDatabase, diffMigration, startEmbeddedPostgres, withDatabase } from '../src/index.js';

const name = process.argv[2];
if (!name) {
  console.error('Usage: pnpm db:diff NAME');
  process.exit(2);
}
const tmp = await mkdtemp(path.join(os.tmpdir(), 'quire-diff-'));
const pg = await startEmbeddedPostgres({ dataDir: path.join(tmp, 'pg') });
try {
  await createDatabase(pg.adminUrl, 'scratch');
  const folder = await diffMigration({ scratchUrl: withDatabase(pg.adminUrl, 'scratch'), name });
  console.info(
    folder ? `Wrote prisma/migrations/${folder}/migration.sql` : 'No schema change: nothing written.',
  );
} finally {
  await pg.stop();
  await rm(tmp, { recursive: true, force: true });
}
