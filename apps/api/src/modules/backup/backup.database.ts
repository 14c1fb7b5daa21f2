import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import pg from 'pg';
import { pgCopy } from '../../lib/load-later.js';

// The database side of a backup: one connection of its own (COPY needs the raw protocol),
// one REPEATABLE READ transaction for a consistent snapshot of every table, and on restore
// one transaction that empties the tables and COPYs the archive's rows back. The embedded
// PostgreSQL ships no pg_dump, and COPY is what pg_dump uses for data anyway.

/**
 * Tables that are not data: the job queue and its schedule bookkeeping (work in flight of the
 * running system: restoring them would send old mail again), the backup runs themselves (they
 * describe archives in this blob store, which a restore keeps), the migration record (the
 * manifest carries it), and the category rights cache with its epoch (derived from the grants:
 * a restore's emptying of the grant and membership tables raises the epoch, so every cached
 * row is computed again; emptying the epoch itself would leave the cache without one), and
 * the file sets epoch (migration 0022) for the same reason.
 */
const NOT_BACKED_UP = new Set([
  'jobs',
  'job_schedules',
  'backups',
  '_prisma_migrations',
  'category_rights_cache',
  'category_rights_epoch',
  'file_sets_epoch',
]);

export type Client = pg.Client;

export async function connect(url: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  return client;
}

const ident = (name: string) => `"${name.replace(/"/g, '""')}"`;

interface TableInfo {
  name: string;
  columns: string[];
}

/** The data tables, parents before the tables whose foreign keys point at them. */
export async function listTables(client: pg.Client): Promise<TableInfo[]> {
  const { rows } = await client.query<{ table_name: string; columns: string[] }>(`
    SELECT c.table_name, array_agg(c.column_name::text ORDER BY c.ordinal_position) AS columns
    FROM information_schema.columns c
    JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name
    WHERE c.table_schema = 'public' AND t.table_type = 'BASE TABLE' AND c.is_generated = 'NEVER'
    GROUP BY c.table_name`);
  const { rows: fks } = await client.query<{ child: string; parent: string }>(`
    SELECT DISTINCT cl.relname AS child, pa.relname AS parent
    FROM pg_constraint k
    JOIN pg_class cl ON cl.oid = k.conrelid JOIN pg_namespace n ON n.oid = cl.relnamespace
    JOIN pg_class pa ON pa.oid = k.confrelid
    WHERE k.contype = 'f' AND n.nspname = 'public' AND cl.oid <> pa.oid`);
  const tables = new Map(
    rows.filter((r) => !NOT_BACKED_UP.has(r.table_name)).map((r) => [r.table_name, r.columns]),
  );
  const parents = new Map<string, Set<string>>([...tables.keys()].map((t) => [t, new Set()]));
  for (const { child, parent } of fks)
    if (tables.has(child) && tables.has(parent)) parents.get(child)?.add(parent);
  const ordered: string[] = [];
  const state = new Map<string, 'visiting'>();
  // Best effort (files and file_versions point at each other): a restore defers every
  // foreign key check to the end of its transaction, so the order is for people reading it.
  const visit = (t: string) => {
    if (state.has(t)) return;
    state.set(t, 'visiting');
    for (const p of [...(parents.get(t) ?? [])].sort()) visit(p);
    ordered.push(t);
  };
  for (const t of [...tables.keys()].sort()) visit(t);
  return ordered.map((name) => ({ name, columns: tables.get(name)! }));
}

/** Applied migrations, oldest first. */
export async function appliedMigrations(client: pg.Client): Promise<string[]> {
  const { rows } = await client.query<{ migration_name: string }>(
    `SELECT migration_name FROM _prisma_migrations
     WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL ORDER BY migration_name`,
  );
  return rows.map((r) => r.migration_name);
}

/**
 * COPY one table (or, for `blobs`, the rows that are not backup archives) out to a temp
 * file, hashing and counting rows on the way: its part of the archive.
 */
export async function exportTable(
  client: pg.Client,
  table: TableInfo,
  file: string,
  where?: string,
): Promise<{ size: number; sha256: string; rows: number }> {
  const cols = table.columns.map(ident).join(', ');
  const source = where
    ? `(SELECT ${cols} FROM ${ident(table.name)} WHERE ${where})`
    : `${ident(table.name)} (${cols})`;
  const hash = createHash('sha256');
  let size = 0;
  let rows = 0;
  const meter = new Transform({
    transform(chunk: Buffer, _enc, done) {
      hash.update(chunk);
      size += chunk.length;
      for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) rows += 1;
      done(null, chunk);
    },
  });
  await pipeline(client.query(pgCopy().to(`COPY ${source} TO STDOUT`)), meter, createWriteStream(file));
  return { size, sha256: hash.digest('hex'), rows };
}

/** Empties every data table (and `backups`, which the caller puts back) in one statement. */
export async function truncateAll(client: pg.Client, tables: string[]): Promise<void> {
  await client.query(`TRUNCATE ${[...tables, 'backups'].map(ident).join(', ')}`);
}

/**
 * Makes every foreign key of the schema checked at the end of the transaction instead of per
 * statement (tables can then be filled in any order, cycles included); `checkDeferred` runs
 * the checks and puts the constraints back as they were. Both inside the restore's
 * transaction: a failed check rolls the schema change back with the data.
 */
export async function deferForeignKeys(client: pg.Client): Promise<Array<{ table: string; name: string }>> {
  const { rows } = await client.query<{ table: string; name: string }>(
    `SELECT c.relname AS table, k.conname AS name FROM pg_constraint k
     JOIN pg_class c ON c.oid = k.conrelid JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE k.contype = 'f' AND n.nspname = 'public' AND NOT k.condeferrable`,
  );
  for (const r of rows)
    await client.query(
      `ALTER TABLE ${ident(r.table)} ALTER CONSTRAINT ${ident(r.name)} DEFERRABLE INITIALLY DEFERRED`,
    );
  return rows;
}

export async function checkDeferred(client: pg.Client, constraints: Array<{ table: string; name: string }>) {
  await client.query('SET CONSTRAINTS ALL IMMEDIATE');
  for (const r of constraints)
    await client.query(`ALTER TABLE ${ident(r.table)} ALTER CONSTRAINT ${ident(r.name)} NOT DEFERRABLE`);
}

/** COPYs an archive part back into its table (its chunks are copied: their buffers are reused). */
export async function importTable(
  client: pg.Client,
  table: string,
  columns: string[],
  content: AsyncIterable<Buffer>,
) {
  async function* copies() {
    for await (const chunk of content) yield Buffer.from(chunk);
  }
  await pipeline(
    Readable.from(copies(), { objectMode: false }),
    client.query(pgCopy().from(`COPY ${ident(table)} (${columns.map(ident).join(', ')}) FROM STDIN`)),
  );
}

/** Moves every serial or identity sequence of the data tables past the largest id restored. */
export async function resetSequences(client: pg.Client, tables: string[]): Promise<void> {
  const { rows } = await client.query<{ table_name: string; column_name: string; seq: string }>(
    `SELECT table_name, column_name, pg_get_serial_sequence(quote_ident(table_name), column_name) AS seq
     FROM information_schema.columns
     WHERE table_schema = 'public' AND table_name = ANY($1::text[])
       AND pg_get_serial_sequence(quote_ident(table_name), column_name) IS NOT NULL`,
    [[...tables, 'backups']],
  );
  for (const r of rows) {
    await client.query(
      `SELECT setval($1::regclass, COALESCE((SELECT max(${ident(r.column_name)}) FROM ${ident(r.table_name)}), 0) + 1, false)`,
      [r.seq],
    );
  }
}
