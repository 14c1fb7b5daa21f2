// pnpm db:migrate — applies pending migrations to DATABASE_URL, or to the embedded
// PostgreSQL under DATA_DIR (default .data/) when DATABASE_URL is unset.
import path from 'node:path';
import { createDatabase, migrate, startEmbeddedPostgres, withDatabase } from '../src/index.js';

const root = path.resolve(import.meta.dirname, '../../..');
const url = process.env.DATABASE_URL;
const embedded = url
  ? undefined
  : await startEmbeddedPostgres({
      dataDir: path.join(path.resolve(root, process.env.DATA_DIR ?? '.data'), 'postgres'),
    });
try {
  const target = url ?? withDatabase(embedded!.adminUrl, 'quire');
  if (embedded) await createDatabase(embedded.adminUrl, 'quire');
  const applied = await migrate(target);
  console.info(applied.length ? `Applied: ${applied.join(', ')}` : 'Database is up to date.');
} finally {
  await embedded?.stop();
}
