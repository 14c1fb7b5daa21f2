import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { databaseUrlOf, rootDir } from '@quire/db';
import { auditKeyOf, keyAuditTransaction } from '../../lib/audit-chain.js';
import { BLOB_GRACE_MS } from '../../lib/blob-collector.js';
import type { BlobStore } from '../../lib/blob-store.js';
import type { Deps } from '../../lib/deps.js';
import { readFileChunks } from '../../lib/file-chunks.js';
import { deriveKey, keyId } from '../../lib/secrets.js';
import {
  ARCHIVE_FORMAT,
  ARCHIVE_FORMAT_VERSION,
  ArchiveError,
  archiveEntry,
  blobEntryName,
  MANIFEST_NAME,
  type Manifest,
  type ManifestPart,
  readArchive,
  SIGNATURE_NAME,
  signManifest,
  TAR_END,
  tableEntryName,
  verifyArchive,
} from './backup.archive.js';
import * as database from './backup.database.js';
import * as repo from './backup.repository.js';

// Making and restoring archives: the work of the backup jobs (backup.jobs.ts) and of the
// upload check. Progress goes on the `backups` row at most once a second.

export const ARCHIVE_MIME = 'application/x-tar';
const PROGRESS_EVERY_MS = 1000;

let version: string | undefined;
function quireVersion(): string {
  version ??=
    (JSON.parse(readFileSync(path.join(rootDir, 'package.json'), 'utf8')) as { version?: string }).version ??
    '0.0.0';
  return version;
}

/** What the `backups.manifest` column keeps: the manifest without its (long) list of parts. */
export function manifestSummary(m: Manifest) {
  return {
    format: m.format,
    format_version: m.format_version,
    quire_version: m.quire_version,
    created_at: m.created_at,
    migration: m.migration,
    tables: m.tables.map((t) => ({ name: t.name, rows: t.rows })),
    blobs: m.blobs,
    parts: m.parts.length,
  };
}

function progressReporter(deps: Deps, id: number, from: number, to: number, total: number) {
  let last = 0;
  return (done: number, force = false) => {
    const now = Date.now();
    if (!force && now - last < PROGRESS_EVERY_MS) return;
    last = now;
    const pct = Math.min(to, Math.floor(from + ((to - from) * done) / Math.max(1, total)));
    repo.updateBackup(deps.db, id, { progress: pct }).catch(() => {});
  };
}

/**
 * Where archives are kept: BACKUP_DIR's own folder store (apart from the data they protect),
 * or the blob store when BACKUP_DIR is unset. The blobs an archive holds always go to and
 * come from the blob store.
 */
export function archives(deps: Pick<Deps, 'blobs' | 'backups'>): BlobStore {
  return deps.backups ?? deps.blobs;
}

/**
 * With BACKUP_DIR, removes the archives no backup points at any more (a deleted or pruned
 * backup, a refused upload) once older than the blob collector's grace period, which keeps
 * an archive being written (not yet pointed at) safe. Without BACKUP_DIR the blob collector
 * does this for the blob store. Run after each backup job and each deleted archive.
 */
export async function sweepArchives(deps: Pick<Deps, 'db' | 'blobs' | 'backups' | 'now'>): Promise<number> {
  if (!deps.backups) return 0;
  const before = deps.now().getTime() - BLOB_GRACE_MS;
  const old: string[] = [];
  for await (const { id, touchedAt } of deps.backups.list()) if (touchedAt.getTime() < before) old.push(id);
  if (!old.length) return 0;
  const kept = await repo.referencedArchives(deps.db, old);
  const gone = old.filter((id) => !kept.has(id));
  for (const id of gone) await deps.backups.remove(id, { unlessTouchedAfter: new Date(before) });
  return gone.length;
}

/** The key that signs and checks this installation's archives (never written into one). */
export function archiveKey(deps: Pick<Deps, 'secretKey'>): { key: Buffer; id: string } {
  const key = deriveKey(deps.secretKey, 'backup-archive');
  return { key, id: keyId(key) };
}

const stamp = (d: Date) => d.toISOString().slice(0, 19).replace(/[-:]/g, '').replace('T', '-');

/**
 * Writes the archive of the whole system into the blob store: every blob, every table in one
 * REPEATABLE READ snapshot, the manifest last. Answers the archive's blob and manifest.
 */
export async function writeArchive(deps: Deps, backupId: number, signal?: AbortSignal) {
  const client = await database.connect(databaseUrlOf(deps.db));
  const tmpDir = path.join(deps.config.dataDir, 'backup-tmp');
  await mkdir(tmpDir, { recursive: true });
  const mtime = deps.now();
  let manifest: Manifest | undefined;

  // The archive as chunks, straight into the blob store (which hashes it to its address).
  async function* archive(): AsyncGenerator<Buffer> {
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    const tables = await database.listTables(client);
    const migrations = await database.appliedMigrations(client);
    // Every blob but the archives of earlier backups (a backup does not contain backups).
    const archiveFilter = 'id NOT IN (SELECT blob_id FROM backups WHERE blob_id IS NOT NULL)';
    const { rows: blobs } = await client.query<{ id: string; size: string }>(
      `SELECT id, size::text FROM blobs WHERE ${archiveFilter} ORDER BY id`,
    );
    const { rows: sizes } = await client.query<{ bytes: string }>(
      `SELECT COALESCE(sum(pg_relation_size(quote_ident(t))), 0)::text AS bytes FROM unnest($1::text[]) AS t`,
      [tables.map((t) => t.name)],
    );
    const blobBytes = blobs.reduce((n, b) => n + Number(b.size), 0);
    const total = blobBytes + Number(sizes[0]?.bytes ?? 0);
    const report = progressReporter(deps, backupId, 1, 99, total);
    let done = 0;
    const parts: ManifestPart[] = [];

    for (const blob of blobs) {
      signal?.throwIfAborted();
      const size = Number(blob.size);
      const onDisk = await deps.blobs.size(blob.id).catch(() => -1);
      // An archive in BACKUP_DIR that no backup points at any more (deleted, refused) but
      // that the blob collector has not dropped yet: not a blob of the data, left out.
      if (onDisk < 0 && deps.backups && (await deps.backups.exists(blob.id))) continue;
      if (onDisk !== size)
        throw new Error(
          `The blob ${blob.id} is ${onDisk < 0 ? 'missing from' : 'a different size in'} the blob store`,
        );
      const name = blobEntryName(blob.id);
      yield* archiveEntry(name, size, mtime, deps.blobs.readChunks(blob.id));
      parts.push({ path: name, size, sha256: blob.id });
      done += size;
      report(done);
    }

    const manifestTables: Manifest['tables'] = [];
    for (const table of tables) {
      signal?.throwIfAborted();
      const file = path.join(tmpDir, `${randomUUID()}.tsv`);
      try {
        const out = await database.exportTable(
          client,
          table,
          file,
          table.name === 'blobs' ? archiveFilter : undefined,
        );
        const name = tableEntryName(table.name);
        yield* archiveEntry(name, out.size, mtime, readFileChunks(file));
        parts.push({ path: name, size: out.size, sha256: out.sha256 });
        manifestTables.push({ name: table.name, path: name, columns: table.columns, rows: out.rows });
        done += out.size;
        report(done);
      } finally {
        await rm(file, { force: true });
      }
    }
    await client.query('COMMIT');

    manifest = {
      format: ARCHIVE_FORMAT,
      format_version: ARCHIVE_FORMAT_VERSION,
      quire_version: quireVersion(),
      created_at: deps.now().toISOString(),
      migration: migrations.at(-1) ?? '',
      migrations,
      tables: manifestTables,
      blobs: { count: blobs.length, bytes: blobBytes },
      parts,
    };
    const json = Buffer.from(JSON.stringify(manifest, null, 1));
    yield* archiveEntry(MANIFEST_NAME, json.length, mtime, json);
    const signing = archiveKey(deps);
    const signature = signManifest(signing.key, signing.id, json);
    yield* archiveEntry(SIGNATURE_NAME, signature.length, mtime, signature);
    yield TAR_END;
  }

  try {
    const stored = await archives(deps).putChunks(archive());
    if (!manifest) throw new Error('The archive was written without its manifest');
    return { archive: stored, manifest };
  } catch (err) {
    await client.query('ROLLBACK').catch(() => {});
    throw err;
  } finally {
    await client.end().catch(() => {});
    await rm(tmpDir, { recursive: true, force: true }).catch(() => {});
  }
}

/** Whether this Quire can take an archive: its schema is not newer, its tables and columns exist. */
async function assertRestorable(client: database.Client, manifest: Manifest) {
  const here = await database.appliedMigrations(client);
  const last = here.at(-1) ?? '';
  if (!here.includes(manifest.migration))
    throw new ArchiveError(
      `the archive comes from a newer Quire (database schema ${manifest.migration}); this one is at ${last}. Upgrade Quire first.`,
    );
  const tables = new Map((await database.listTables(client)).map((t) => [t.name, new Set(t.columns)]));
  for (const t of manifest.tables) {
    const columns = tables.get(t.name);
    if (!columns) throw new ArchiveError(`the archive has a table ${t.name} that this Quire does not know`);
    const unknown = t.columns.find((c) => !columns.has(c));
    if (unknown)
      throw new ArchiveError(
        `the archive's table ${t.name} has a column ${unknown} that this Quire does not know`,
      );
  }
}

/**
 * Restores an archive: checks every checksum first (a bad archive changes nothing), then
 * stores the blobs by content address, then replaces every data table in one transaction
 * (TRUNCATE, COPY FROM, sequences moved on). The `backups` rows of this system are kept.
 */
export async function restoreArchive(
  deps: Deps,
  backupId: number,
  blobId: string,
  actor: { userId: number | null },
  signal?: AbortSignal,
) {
  const size = await archives(deps).size(blobId);
  const verifying = progressReporter(deps, backupId, 1, 40, size);
  // The signature first: an archive not made here changes nothing (decision 013).
  const manifest = await verifyArchive(archives(deps).readChunks(blobId), archiveKey(deps), (n) =>
    verifying(n),
  );
  const client = await database.connect(databaseUrlOf(deps.db));
  const written: string[] = [];
  try {
    await assertRestorable(client, manifest);
    const restoring = progressReporter(deps, backupId, 40, 90, size);
    const columnsOf = new Map(manifest.tables.map((t) => [t.name, t.columns]));
    const here = (await database.listTables(client)).map((t) => t.name);
    let done = 0;
    let inTransaction = false;
    let deferred: Array<{ table: string; name: string }> = [];
    const startDatabase = async () => {
      inTransaction = true;
      await client.query('BEGIN');
      // The audit trail is reloaded with the chain values it had (decision 015): its
      // append-only triggers let this transaction replace it, and nothing else.
      await client.query(`SET LOCAL quire.audit_reload = 'on'`);
      // The backup runs of this system stay (they describe archives in this blob store).
      await client.query('CREATE TEMP TABLE keep_backups ON COMMIT DROP AS SELECT * FROM backups');
      await client.query(
        'CREATE TEMP TABLE keep_blobs ON COMMIT DROP AS SELECT * FROM blobs WHERE id IN (SELECT blob_id FROM keep_backups)',
      );
      deferred = await database.deferForeignKeys(client);
      await database.truncateAll(client, here);
    };
    await readArchive(archives(deps).readChunks(blobId), async (entry) => {
      signal?.throwIfAborted();
      if (entry.kind === 'blob') {
        if (await deps.blobs.exists(entry.key)) return;
        const put = await deps.blobs.putChunks(entry.content);
        written.push(put.id);
        if (put.id !== entry.key)
          throw new ArchiveError(`the blob ${entry.key} changed since it was checked`);
        done += put.size;
        restoring(done);
      } else if (entry.kind === 'table') {
        if (!inTransaction) await startDatabase();
        await database.importTable(client, entry.key, columnsOf.get(entry.key)!, entry.content);
      }
    });
    if (!inTransaction) await startDatabase();
    await client.query(`INSERT INTO blobs SELECT * FROM keep_blobs ON CONFLICT (id) DO NOTHING`);
    await client.query(`INSERT INTO backups SELECT * FROM keep_backups`);
    // Who asked for a kept backup may not exist in the restored data.
    await client.query(
      `UPDATE backups SET requested_by_id = NULL
       WHERE requested_by_id IS NOT NULL AND requested_by_id NOT IN (SELECT id FROM users)`,
    );
    await database.checkDeferred(client, deferred);
    await database.resetSequences(client, here);
    const now = deps.now().toISOString();
    await client.query(
      `UPDATE backups SET status = 'restored', progress = 100, restored_at = $2::timestamptz AT TIME ZONE 'UTC', error = NULL WHERE id = $1`,
      [backupId, now],
    );
    // From here on events are new: sealed onto the reloaded chain at commit, with the audit key.
    await client.query(`SET LOCAL quire.audit_reload = 'off'`);
    await keyAuditTransaction(client, auditKeyOf(deps.secretKey));
    const userId =
      actor.userId !== null
        ? ((await client.query('SELECT id FROM users WHERE id = $1', [actor.userId])).rows[0]?.id ?? null)
        : null;
    await client.query(
      `INSERT INTO audit_events (user_id, type, action, target_type, target_id, message, details, created_at)
       VALUES ($1, 'backup', 'backup.restored', 'backup', $2, $3, $4::jsonb, $5::timestamptz AT TIME ZONE 'UTC')`,
      [
        userId,
        String(backupId),
        `Restored the backup of ${manifest.created_at.slice(0, 19).replace('T', ' ')} (schema ${manifest.migration})`,
        JSON.stringify({
          tables: manifest.tables.length,
          blobs: manifest.blobs.count,
          quire_version: manifest.quire_version,
        }),
        now,
      ],
    );
    await client.query('COMMIT');
    return manifest;
  } catch (err) {
    await client.query('ROLLBACK').catch(() => {});
    // Blobs this restore added are unreferenced now: remove them (nothing else points at them).
    for (const id of written) await deps.blobs.remove(id).catch(() => {});
    throw err;
  } finally {
    await client.end().catch(() => {});
  }
}

/** The default name of an archive. */
export const archiveName = (at: Date) => `quire-backup-${stamp(at)}.tar`;
