import { cp, mkdtemp, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createDatabase,
  diffMigration,
  type EmbeddedDatabase,
  migrate,
  migrationsDir,
  schemaPath,
  startEmbeddedPostgres,
  withDatabase,
} from '../src/index.js';
import { query } from './helpers.js';

let tmp: string;
let server: EmbeddedDatabase;
beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'quire-db-test-'));
  server = await startEmbeddedPostgres({ dataDir: path.join(tmp, 'pg') });
});
afterAll(async () => {
  await server?.stop();
  await rm(tmp, { recursive: true, force: true });
});

describe('migrations', () => {
  it('applies every migration once, in the table prisma migrate deploy keeps', async () => {
    await createDatabase(server.adminUrl, 'm1');
    const url = withDatabase(server.adminUrl, 'm1');
    const applied = await migrate(url);
    expect(applied[0]).toBe('0001_init');
    expect(await migrate(url)).toEqual([]);
    const rows = await query(url, 'SELECT migration_name, finished_at FROM _prisma_migrations ORDER BY 1');
    expect(rows.map((r) => r.migration_name)).toEqual(applied);
    expect(rows.every((r) => r.finished_at)).toBe(true);
    const tables = await query(url, "SELECT tablename FROM pg_tables WHERE schemaname = 'public'");
    expect(tables.map((t) => t.tablename)).toEqual(
      expect.arrayContaining(['users', 'sessions', 'audit_events']),
    );
  });

  it('applies a migration added after the others, and refuses to go on past a failed one', async () => {
    // The start skips the schema engine when every migration is recorded: a new folder, or a
    // failed row, must still reach it.
    const dir = path.join(tmp, 'migrations-later');
    await cp(migrationsDir, dir, { recursive: true });
    const names = (await readdir(dir, { withFileTypes: true }))
      .filter((e) => e.isDirectory())
      .map((e) => e.name);
    const last = names.sort().at(-1)!;
    const held = path.join(tmp, 'held-back');
    await rename(path.join(dir, last), held);
    await createDatabase(server.adminUrl, 'm5');
    const url = withDatabase(server.adminUrl, 'm5');
    expect(await migrate(url, dir)).not.toContain(last);
    await rename(held, path.join(dir, last));
    expect(await migrate(url, dir)).toEqual([last]);
    expect(await migrate(url, dir)).toEqual([]);

    await query(
      url,
      `INSERT INTO _prisma_migrations (id, checksum, migration_name, started_at, applied_steps_count)
       VALUES ('failed-one', 'x', '9999_failed', now(), 0)`,
    );
    await expect(migrate(url, dir)).rejects.toThrow(/9999_failed/);
  });

  it('finds no difference between the migrations and schema.prisma', async () => {
    // On a copy: a difference writes a migration, which must not land in prisma/migrations.
    const dir = path.join(tmp, 'migrations-check');
    await cp(migrationsDir, dir, { recursive: true });
    await createDatabase(server.adminUrl, 'm2');
    const folder = await diffMigration({
      scratchUrl: withDatabase(server.adminUrl, 'm2'),
      name: 'nothing',
      dir,
    });
    const sql = folder ? await readFile(path.join(dir, folder, 'migration.sql'), 'utf8') : '';
    expect(sql).toBe('');
    expect(folder).toBeNull();
  });

  it('writes a new migration for a schema change, which then applies', async () => {
    const dir = path.join(tmp, 'migrations');
    await cp(migrationsDir, dir, { recursive: true });
    const schemaFile = path.join(tmp, 'schema.prisma');
    const schema = await readFile(schemaPath, 'utf8');
    await writeFile(
      schemaFile,
      `${schema}\nmodel Probe {\n  id Int @id\n  label String\n\n  @@map("probes")\n}\n`,
    );
    await createDatabase(server.adminUrl, 'm3');
    const folder = await diffMigration({
      scratchUrl: withDatabase(server.adminUrl, 'm3'),
      name: 'Add probes!',
      dir,
      schemaFile,
    });
    expect(folder).toMatch(/^\d{4}_add_probes$/);
    const sql = await readFile(path.join(dir, folder!, 'migration.sql'), 'utf8');
    expect(sql).toContain('CREATE TABLE "probes"');
    await createDatabase(server.adminUrl, 'm4');
    const applied = await migrate(withDatabase(server.adminUrl, 'm4'), dir);
    expect(applied.at(-1)).toBe(folder);
  });
});
