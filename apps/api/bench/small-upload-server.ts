// A server for the small-uploads benchmark (bench/small-uploads.ts), one per child process:
//   quire <databaseUrl> <dataDir>   the real app (buildApp), as `pnpm start` runs it
//   bare  <databaseUrl> <dataDir>   the baseline: a bare Fastify that does the same durable
//                                   work for POST /api/new-upload and nothing else — receives
//                                   the multipart form, hashes the file while writing it to a
//                                   temp file, fsyncs it, renames it to its hash, fsyncs the
//                                   folder, and inserts a row in one committed transaction
// Says "listening <port>" on stdout. BENCH_PROFILE=<dir>: a CPU profile is written on SIGTERM
// (the parent passes --cpu-prof).
import { createHash, randomUUID } from 'node:crypto';
import { mkdir, open, rename } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import multipart from '@fastify/multipart';
import { createDb } from '@quire/db';
import Fastify from 'fastify';
import pg from 'pg';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';

const [mode, databaseUrl, dataDir] = process.argv.slice(2);
if (!databaseUrl || !dataDir)
  throw new Error('usage: small-upload-server.ts quire|bare <databaseUrl> <dataDir>');

let app: {
  listen: (o: { host: string; port: number }) => Promise<unknown>;
  server: import('node:http').Server;
};
if (mode === 'quire') {
  app = await buildApp({
    config: loadConfig({
      DATA_DIR: dataDir,
      LOG_LEVEL: 'info', // as `pnpm start` runs: a log line per request (stdout goes nowhere here)
      QUIRE_ROLE: 'api',
      LOGIN_RATE_LIMIT: '1000000',
    }),
    db: createDb(databaseUrl),
  });
} else {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 10 });
  await pool.query(
    'CREATE TABLE IF NOT EXISTS bench_uploads (id serial PRIMARY KEY, folder_id int NOT NULL, name text NOT NULL, blob_id text NOT NULL, size bigint NOT NULL, created_at timestamptz NOT NULL DEFAULT now())',
  );
  const tmpDir = path.join(dataDir, 'tmp');
  await mkdir(tmpDir, { recursive: true });
  const bare = Fastify({ logger: false });
  await bare.register(multipart);
  bare.post('/api/new-upload', async (req) => {
    let folderId = 0;
    const stored: Array<{ name: string; id: string; size: number }> = [];
    for await (const part of req.parts()) {
      if (part.type === 'field') {
        if (part.fieldname === 'folder_id') folderId = Number(part.value);
        continue;
      }
      const tmp = path.join(tmpDir, randomUUID());
      const fh = await open(tmp, 'w');
      const hash = createHash('sha256');
      let size = 0;
      part.file.on('data', (chunk: Buffer) => {
        hash.update(chunk);
        size += chunk.length;
      });
      await pipeline(part.file, fh.createWriteStream({ flush: true }));
      const id = hash.digest('hex');
      const target = path.join(dataDir, id.slice(0, 2), id.slice(2, 4), id);
      await mkdir(path.dirname(target), { recursive: true });
      await rename(tmp, target);
      const folder = await open(path.dirname(target), 'r');
      await folder.sync().finally(() => folder.close());
      stored.push({ name: part.filename, id, size });
    }
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      const ids: number[] = [];
      for (const s of stored) {
        const { rows } = await client.query(
          'INSERT INTO bench_uploads (folder_id, name, blob_id, size) VALUES ($1, $2, $3, $4) RETURNING id',
          [folderId, s.name, s.id, s.size],
        );
        ids.push(rows[0].id);
      }
      await client.query('COMMIT');
      return { message: 'File uploaded', data: { folder_id: folderId, files: ids.map((id) => ({ id })) } };
    } catch (err) {
      await client.query('ROLLBACK').catch(() => {});
      throw err;
    } finally {
      client.release();
    }
  });
  app = bare;
}
await app.listen({ host: '127.0.0.1', port: 0 });
const address = app.server.address();
process.stdout.write(`listening ${typeof address === 'object' && address ? address.port : 0}\n`);
process.on('SIGTERM', () => process.exit(0));
