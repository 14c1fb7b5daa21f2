import { z } from 'zod';
import type { Deps, Tx } from './deps.js';
import { defineJob } from './jobs/definition.js';
import type { ScheduledPayload } from './jobs/schedules.js';

// The blob collector (decision 010): deletes blobs that no row references, row and file;
// then content in the store that no `blobs` row names (sweepUnnamedContent).
//
// What "references" means is read from PostgreSQL's catalog at every run: every foreign key
// that points at blobs.id, in any table, so a table added later is covered without a list to
// keep. A blob younger than the grace period is kept whatever it looks like, so content whose
// row is written but not yet pointed at (an upload in flight, a two-step upload) is never
// collected. Each batch locks its blob rows (FOR UPDATE SKIP LOCKED): a transaction that is
// inserting a reference right now holds the row's key-share lock, so its blob is skipped,
// and a reference inserted after the lock waits and then fails its foreign key check rather
// than pointing at nothing. The file is removed after the row's deletion has committed.

declare module './jobs/queue.js' {
  interface JobPayloads {
    'blobs.collect': Partial<ScheduledPayload>;
  }
}

/** Blobs younger than this are never collected (the default of the BLOB_GRACE_MS variable). */
export const BLOB_GRACE_MS = 24 * 60 * 60_000;
/** When the collector runs (every hour, at minute 17). */
export const BLOB_COLLECT_CRON = '17 * * * *';
const BATCH = 500;

interface BlobReference {
  /** The referencing table as PostgreSQL names it (schema-qualified and quoted where needed). */
  table: string;
  /** The referencing column, quoted. */
  column: string;
}

/** Every column that is a foreign key to blobs.id, from the catalog. */
export function blobReferences(db: Tx): Promise<BlobReference[]> {
  return db.$queryRaw<BlobReference[]>`
    SELECT c.conrelid::regclass::text AS "table", quote_ident(a.attname) AS "column"
    FROM pg_constraint c
    CROSS JOIN LATERAL unnest(c.conkey, c.confkey) AS k(local_col, blob_col)
    JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.local_col
    JOIN pg_attribute b ON b.attrelid = c.confrelid AND b.attnum = k.blob_col
    WHERE c.contype = 'f' AND c.confrelid = 'blobs'::regclass AND b.attname = 'id'
    ORDER BY 1, 2`;
}

/**
 * Deletes every blob created before `createdBefore` that nothing references, in batches;
 * answers the ids deleted. Files are removed through the blob store after each batch commits.
 */
async function collectBlobs(
  deps: Pick<Deps, 'db' | 'blobs' | 'log'>,
  createdBefore: Date,
  signal?: AbortSignal,
): Promise<string[]> {
  const refs = await blobReferences(deps.db);
  const unreferenced = refs.length
    ? refs.map((r) => `NOT EXISTS (SELECT 1 FROM ${r.table} r WHERE r.${r.column} = b.id)`).join(' AND ')
    : 'TRUE';
  const sql = `
    WITH doomed AS MATERIALIZED (
      SELECT b.id FROM blobs b
      WHERE b.created_at < ($1::timestamptz AT TIME ZONE 'UTC') AND ${unreferenced}
      ORDER BY b.created_at, b.id
      LIMIT ${BATCH}
      FOR UPDATE OF b SKIP LOCKED
    )
    DELETE FROM blobs d USING doomed WHERE d.id = doomed.id
    RETURNING d.id`;
  const removed: string[] = [];
  for (;;) {
    if (signal?.aborted) break;
    const rows = await deps.db.$queryRawUnsafe<Array<{ id: string }>>(sql, createdBefore.toISOString());
    for (const { id } of rows) {
      try {
        // A file touched since the cutoff was just uploaded again: its new row will need it.
        await deps.blobs.remove(id, { unlessTouchedAfter: createdBefore });
        removed.push(id);
      } catch (err) {
        // The row is gone: the file is an orphan nothing can reach; say so and go on.
        deps.log.error({ err, blobId: id }, 'blob row deleted but its file could not be removed');
      }
    }
    if (rows.length < BATCH) break;
  }
  if (removed.length) deps.log.info({ count: removed.length }, 'collected unreferenced blobs');
  return removed;
}

/**
 * Deletes stored content that no `blobs` row names and that no put has written or touched
 * since `touchedBefore`: the content of an upload whose transaction failed, content stored
 * before a restore replaced the rows. It starts from the store, not from the rows (which
 * collectBlobs starts from), in batches of ids looked up in `blobs`. Content younger than the
 * cutoff is an upload in flight (its row not yet committed) and is kept; so is content a put
 * touches between the look-up and the removal (`remove`'s `unlessTouchedAfter`). Answers the
 * ids deleted.
 */
async function sweepUnnamedContent(
  deps: Pick<Deps, 'db' | 'blobs' | 'log'>,
  touchedBefore: Date,
  signal?: AbortSignal,
): Promise<string[]> {
  const removed: string[] = [];
  let batch: string[] = [];
  const sweep = async () => {
    const named = await deps.db.$queryRaw<Array<{ id: string }>>`
      SELECT id FROM blobs WHERE id = ANY(${batch}::text[])`;
    const keep = new Set(named.map((r) => r.id));
    for (const id of batch) {
      if (keep.has(id)) continue;
      try {
        await deps.blobs.remove(id, { unlessTouchedAfter: touchedBefore });
        if (!(await deps.blobs.exists(id))) removed.push(id);
      } catch (err) {
        deps.log.error({ err, blobId: id }, 'content no row names could not be removed');
      }
    }
    batch = [];
  };
  for await (const blob of deps.blobs.list()) {
    if (signal?.aborted) return removed;
    if (blob.touchedAt >= touchedBefore) continue;
    batch.push(blob.id);
    if (batch.length >= BATCH) await sweep();
  }
  if (batch.length) await sweep();
  if (removed.length) deps.log.info({ count: removed.length }, 'removed stored content that no row names');
  return removed;
}

export const blobCollectJob = defineJob({
  kind: 'blobs.collect',
  payload: z.object({ due_at: z.string().optional() }),
  timeoutMs: 30 * 60_000,
  async run(job, deps) {
    const cutoff = new Date(deps.now().getTime() - deps.config.BLOB_GRACE_MS);
    await collectBlobs(deps, cutoff, job.signal);
    await sweepUnnamedContent(deps, cutoff, job.signal);
  },
});
