import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { migrationsDir as defaultMigrationsDir, schemaPath as defaultSchemaPath } from './paths.js';
import { noFilters, withSchemaEngine } from './schema-engine.js';

const LOCKFILE = 'migration_lock.toml';

async function loadMigrations(dir: string) {
  const lockPath = path.join(dir, LOCKFILE);
  const entries = existsSync(dir) ? await readdir(dir, { withFileTypes: true }) : [];
  const names = entries
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
  const migrationDirectories = await Promise.all(
    names.map(async (name) => ({
      path: name,
      migrationFile: {
        path: 'migration.sql',
        content: { tag: 'ok' as const, value: await readFile(path.join(dir, name, 'migration.sql'), 'utf8') },
      },
    })),
  );
  return {
    baseDir: dir,
    lockfile: { path: LOCKFILE, content: existsSync(lockPath) ? await readFile(lockPath, 'utf8') : null },
    shadowDbInitScript: '',
    migrationDirectories,
  };
}

/**
 * Applies every migration in prisma/migrations that the database has not seen, recording
 * them in `_prisma_migrations` exactly as `prisma migrate deploy` does.
 */
export async function migrate(databaseUrl: string, dir = defaultMigrationsDir): Promise<string[]> {
  const migrationsList = await loadMigrations(dir);
  // Most starts have nothing to apply: then the schema engine (5 MB of WebAssembly, compiled
  // and kept in memory) is not loaded at all.
  if (
    await allApplied(
      databaseUrl,
      migrationsList.migrationDirectories.map((m) => m.path),
    )
  )
    return [];
  const out = await withSchemaEngine(databaseUrl, (engine) =>
    engine.applyMigrations({ migrationsList, filters: noFilters }),
  );
  return out.appliedMigrationNames;
}

/**
 * True when `_prisma_migrations` records every one of `names` as applied and no migration
 * as failed (started, neither finished nor rolled back): what `prisma migrate deploy` would
 * do nothing about. Anything else (no table yet, a new or failed migration) is left to the
 * schema engine, which applies or reports it.
 */
async function allApplied(databaseUrl: string, names: string[]): Promise<boolean> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ name: string; finished: boolean; rolled_back: boolean }>(
      `SELECT migration_name AS name, finished_at IS NOT NULL AS finished,
              rolled_back_at IS NOT NULL AS rolled_back
         FROM _prisma_migrations`,
    );
    if (rows.some((r) => !r.finished && !r.rolled_back)) return false;
    const applied = new Set(rows.filter((r) => r.finished && !r.rolled_back).map((r) => r.name));
    return names.every((name) => applied.has(name));
  } catch (err) {
    if ((err as { code?: string }).code === '42P01') return false; // no _prisma_migrations yet
    throw err;
  } finally {
    await client.end();
  }
}

/**
 * Writes a new migration folder with the SQL that takes a database migrated to the latest
 * migration to the current schema.prisma. `scratchUrl` must point at an empty database.
 * Returns the folder name, or null when the schema has no change.
 */
export async function diffMigration(options: {
  scratchUrl: string;
  name: string;
  dir?: string;
  schemaFile?: string;
}): Promise<string | null> {
  const dir = options.dir ?? defaultMigrationsDir;
  const schemaFile = options.schemaFile ?? defaultSchemaPath;
  const applied = await migrate(options.scratchUrl, dir);
  const content = await readFile(schemaFile, 'utf8');
  const result = await withSchemaEngine(options.scratchUrl, (engine) =>
    engine.diff({
      from: applied.length
        ? {
            tag: 'schemaDatasource',
            files: [{ path: schemaFile, content }],
            configDir: path.dirname(schemaFile),
          }
        : { tag: 'empty' },
      to: { tag: 'schemaDatamodel', files: [{ path: schemaFile, content }] },
      script: true,
      exitCode: true,
      filters: noFilters,
    }),
  );
  const sql = result.stdout ?? '';
  if (result.exitCode !== 2 || !sql.trim() || sql.includes('-- This is an empty migration.')) return null;

  await mkdir(dir, { recursive: true });
  // The next number after the highest one (folders may skip numbers: areas reserve theirs).
  const existing = (await readdir(dir, { withFileTypes: true }))
    .filter((e) => e.isDirectory())
    .reduce((max, e) => Math.max(max, Number.parseInt(e.name, 10) || 0), 0);
  const slug = options.name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_|_$/g, '');
  const folder = `${String(existing + 1).padStart(4, '0')}_${slug || 'migration'}`;
  await mkdir(path.join(dir, folder));
  await writeFile(path.join(dir, folder, 'migration.sql'), sql);
  const lockPath = path.join(dir, LOCKFILE);
  if (!existsSync(lockPath)) {
    await writeFile(
      lockPath,
      '# Please do not edit this file manually\n# It should be added in your version-control system (e.g., Git)\nprovider = "postgresql"\n',
    );
  }
  return folder;
}

/** Creates a database (if missing) on the server that `adminUrl` points at. */
export async function createDatabase(adminUrl: string, name: string, template?: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const exists = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (exists.rowCount) return;
    const quoted = `"${name.replace(/"/g, '""')}"`;
    const from = template ? ` TEMPLATE "${template.replace(/"/g, '""')}"` : '';
    await client.query(`CREATE DATABASE ${quoted}${from}`);
  } finally {
    await client.end();
  }
}

export function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}
