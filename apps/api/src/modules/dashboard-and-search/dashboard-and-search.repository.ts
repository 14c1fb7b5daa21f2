import { type Db, Prisma } from '@quire/db';
import type { Tx } from '../../lib/deps.js';
import { utc } from '../../lib/jobs/queue.js';
import { readRows } from '../../lib/sql.js';
import {
  epochsOf,
  type SeenSets,
  seenCondition,
  seenEpochColumn,
  seenRoutes,
} from '../../lib/visible-sets.js';

// The queries of the dashboard and of text extraction, and the file summary every list shows
// (the search's queries are search.repository.ts). Each list filters in the SQL by the
// caller's sets, read for the request or kept between calls and checked (lib/visible-sets.ts),
// so pages and counts hold only what the caller may see and no statement runs the rights
// function.
// The SQL is built here (and exported) so that `pnpm bench:search` runs exactly these
// statements bare through `pg` as its baseline.

/** Counting stops here: past it a page says "10,000+". */
export const COUNT_CAP = 10_000;

export const LIVE = Prisma.sql`f.deleted_at IS NULL AND f.index_status = 'indexed'`;

/** The columns of a file summary, from `files f` and the joins of SUMMARY_JOINS. */
export const SUMMARY_COLUMNS = Prisma.sql`
  f.id, f.name, f.category_id, c.name AS category_name, f.owner_id, o.username AS owner_username,
  o.first_name AS owner_first_name, o.last_name AS owner_last_name, v.mime_type, v.size,
  f.locked_by_id IS NOT NULL AS locked, f.checked_out_by_id IS NOT NULL AS checked_out,
  f.created_at, f.updated_at`;
export const SUMMARY_JOINS = Prisma.sql`
  LEFT JOIN categories c ON c.id = f.category_id
  JOIN users o ON o.id = f.owner_id
  LEFT JOIN file_versions v ON v.id = f.current_version_id`;

export interface SummaryRow {
  id: number;
  name: string;
  category_id: number | null;
  category_name: string | null;
  owner_id: number;
  owner_username: string;
  owner_first_name: string;
  owner_last_name: string;
  mime_type: string | null;
  /** bigint through Prisma, a string of digits through node-postgres (queryRows). */
  size: bigint | string | null;
  locked: boolean;
  checked_out: boolean;
  created_at: Date;
  updated_at: Date;
}

// ---- dashboard ------------------------------------------------------------------------------

export type DashboardRow = SummaryRow & {
  at: Date;
  task_id: number | null;
  step_id: number | null;
  step_name: string | null;
  workflow_id: number | null;
  workflow_name: string | null;
  due_at: Date | null;
};

export interface Window {
  limit: number;
  offset: number;
}

export const page = (w: Window) => Prisma.sql`LIMIT ${w.limit}::int OFFSET ${w.offset}::int`;
const noTask = Prisma.sql`NULL::int AS task_id, NULL::int AS step_id, NULL::text AS step_name,
  NULL::int AS workflow_id, NULL::text AS workflow_name, NULL::timestamp AS due_at`;

/** The dashboard's four tables: the rows of one page, and how many rows (counting at most COUNT_CAP + 1). */
export const dashboardSql = {
  previewed: (seen: SeenSets, w: Window) => ({
    rows: Prisma.sql`
      SELECT ${SUMMARY_COLUMNS}, fv.last_viewed_at AS at, ${noTask}${seenEpochColumn(seen)}
        FROM file_views fv JOIN files f ON f.id = fv.file_id ${SUMMARY_JOINS}
       WHERE fv.user_id = ${seen.userId}::int AND f.deleted_at IS NULL AND ${seenCondition(seen)}
       ORDER BY fv.last_viewed_at DESC, f.id DESC ${page(w)}`,
    count: Prisma.sql`
      SELECT count(*)::int AS n${seenEpochColumn(seen)} FROM (SELECT 1 FROM file_views fv JOIN files f ON f.id = fv.file_id
       WHERE fv.user_id = ${seen.userId}::int AND f.deleted_at IS NULL AND ${seenCondition(seen)}
       LIMIT ${COUNT_CAP + 1}::int) x`,
  }),
  checked_out: (seen: SeenSets, w: Window) => ({
    rows: Prisma.sql`
      SELECT ${SUMMARY_COLUMNS}, coalesce(f.checked_out_at, f.updated_at) AS at, ${noTask}${seenEpochColumn(seen)}
        FROM files f ${SUMMARY_JOINS}
       WHERE f.checked_out_by_id = ${seen.userId}::int AND f.deleted_at IS NULL AND ${seenCondition(seen)}
       ORDER BY f.checked_out_at DESC NULLS LAST, f.id DESC ${page(w)}`,
    count: Prisma.sql`
      SELECT count(*)::int AS n${seenEpochColumn(seen)} FROM (SELECT 1 FROM files f
       WHERE f.checked_out_by_id = ${seen.userId}::int AND f.deleted_at IS NULL AND ${seenCondition(seen)}
       LIMIT ${COUNT_CAP + 1}::int) x`,
  }),
  recent: (seen: SeenSets, w: Window) => ({
    rows: Prisma.sql`
      SELECT ${SUMMARY_COLUMNS}, f.updated_at AS at, ${noTask}${seenEpochColumn(seen)}
        FROM files f ${SUMMARY_JOINS}
       WHERE ${LIVE} AND ${seenCondition(seen)}
       ORDER BY f.updated_at DESC, f.id DESC ${page(w)}`,
    // One capped query per way of seeing a file (disjoint), each read by its own index.
    count: Prisma.sql`
      SELECT count(*)::int AS n${seenEpochColumn(seen)} FROM (SELECT 1 FROM (${Prisma.join(
        seenRoutes(seen).map(
          (route) =>
            Prisma.sql`(SELECT 1 FROM files f WHERE ${LIVE} AND ${route} LIMIT ${COUNT_CAP + 1}::int)`,
        ),
        ' UNION ALL ',
      )}) u LIMIT ${COUNT_CAP + 1}::int) x`,
  }),
  assigned: (seen: SeenSets, w: Window) => ({
    rows: Prisma.sql`
      SELECT ${SUMMARY_COLUMNS}, t.created_at AS at, t.id AS task_id, s.id AS step_id, s.name AS step_name,
             wf.id AS workflow_id, wf.name AS workflow_name, t.due_at${seenEpochColumn(seen)}
        FROM workflow_tasks t
        JOIN workflow_instances wi ON wi.id = t.instance_id AND wi.status = 'running'
        JOIN workflow_steps s ON s.id = t.step_id
        JOIN workflows wf ON wf.id = wi.workflow_id
        JOIN files f ON f.id = wi.file_id ${SUMMARY_JOINS}
       WHERE t.user_id = ${seen.userId}::int AND t.status = 'open' AND f.deleted_at IS NULL AND ${seenCondition(seen)}
       ORDER BY t.created_at DESC, t.id DESC ${page(w)}`,
    count: Prisma.sql`
      SELECT count(*)::int AS n${seenEpochColumn(seen)} FROM (SELECT 1 FROM workflow_tasks t
        JOIN workflow_instances wi ON wi.id = t.instance_id AND wi.status = 'running'
        JOIN files f ON f.id = wi.file_id
       WHERE t.user_id = ${seen.userId}::int AND t.status = 'open' AND f.deleted_at IS NULL AND ${seenCondition(seen)}
       LIMIT ${COUNT_CAP + 1}::int) x`,
  }),
};

/** One table's page and count, on the pool, with the epochs their snapshots saw (lib/visible-sets.ts). */
export async function dashboardTable(db: Db, sql: { rows: Prisma.Sql; count: Prisma.Sql }) {
  const [rows, count] = await Promise.all([
    readRows<DashboardRow & { seen_epoch?: string }>(db, sql.rows),
    readRows<{ n: number; seen_epoch?: string }>(db, sql.count),
  ]);
  return { rows, total: count[0]?.n ?? 0, epochs: epochsOf(rows[0], count[0]) };
}

// ---- text extraction ------------------------------------------------------------------------

export function findVersion(db: Tx, versionId: number) {
  return db.fileVersion.findUnique({
    where: { id: versionId },
    select: {
      id: true,
      fileId: true,
      blobId: true,
      mimeType: true,
      size: true,
      originalName: true,
      text: true,
    },
  });
}

export async function markPending(db: Tx, versionId: number) {
  await db.$executeRaw`
    INSERT INTO version_texts (version_id, status) VALUES (${versionId}::int, 'pending')
    ON CONFLICT (version_id) DO NOTHING`;
}

/** Stores the outcome; the vector is made by quire_text_vector in the company's language. */
export async function storeText(
  db: Tx,
  versionId: number,
  outcome: {
    status: 'done' | 'failed' | 'unsupported';
    text: string | null;
    truncated: boolean;
    error: string | null;
    at: Date;
    /** Where each page starts in `text` (characters); empty for content without pages. */
    pageStarts: number[];
    /** Text recognition: pages read and languages; null when it did not run. */
    ocr: { pages: number; languages: string } | null;
  },
) {
  const ocrAt = outcome.ocr ? utc(outcome.at) : null;
  await db.$executeRaw`
    INSERT INTO version_texts (version_id, status, text, truncated, error, extracted_at, search_vector,
                               page_starts, ocr_at, ocr_pages, ocr_languages)
    VALUES (${versionId}::int, ${outcome.status}::"ExtractStatus", ${outcome.text}, ${outcome.truncated}, ${outcome.error},
            ${utc(outcome.at)}::timestamptz AT TIME ZONE 'UTC', quire_text_vector(${outcome.text}),
            ${outcome.pageStarts}::int[], ${ocrAt}::timestamptz AT TIME ZONE 'UTC', ${outcome.ocr?.pages ?? null}::int,
            ${outcome.ocr?.languages ?? null})
    ON CONFLICT (version_id) DO UPDATE SET
      status = EXCLUDED.status, text = EXCLUDED.text, truncated = EXCLUDED.truncated, error = EXCLUDED.error,
      extracted_at = EXCLUDED.extracted_at, search_vector = EXCLUDED.search_vector, page_starts = EXCLUDED.page_starts,
      ocr_at = EXCLUDED.ocr_at, ocr_pages = EXCLUDED.ocr_pages, ocr_languages = EXCLUDED.ocr_languages`;
}

// Word boxes of text recognition: derived content of the version (version_derivatives, the
// `preview` kind, which images and PDFs have no other use for), told apart by its type.

/** The type of a version's stored word boxes (JSON, text-marks.service.ts). */
export const WORD_BOXES_TYPE = 'application/vnd.quire.word-boxes+json';

/** Points the version's word boxes at `blobId` (recorded by the caller), or drops them (null). */
export async function storeWordBoxes(tx: Tx, versionId: number, blobId: string | null) {
  if (!blobId) {
    await tx.versionDerivative.deleteMany({
      where: { versionId, kind: 'preview', mimeType: WORD_BOXES_TYPE },
    });
    return;
  }
  const row = { blobId, mimeType: WORD_BOXES_TYPE, width: null, height: null, error: null };
  await tx.versionDerivative.upsert({
    where: { versionId_kind: { versionId, kind: 'preview' } },
    create: { versionId, kind: 'preview', ...row },
    update: row,
  });
}

/** The current version of a live file and the blob of its word boxes (null: none kept). */
export async function wordBoxesOfFile(db: Tx, fileId: number) {
  const file = await db.file.findFirst({
    where: { id: fileId, deletedAt: null },
    select: {
      currentVersion: {
        select: {
          id: true,
          derivatives: { where: { kind: 'preview', mimeType: WORD_BOXES_TYPE }, select: { blobId: true } },
        },
      },
    },
  });
  if (!file) return null;
  const version = file.currentVersion;
  return { versionId: version?.id ?? null, blobId: version?.derivatives[0]?.blobId ?? null };
}

/** Sets a version's text back to pending (text recognition asked for again). */
export async function resetText(db: Tx, versionId: number) {
  await db.$executeRaw`
    INSERT INTO version_texts (version_id, status) VALUES (${versionId}::int, 'pending')
    ON CONFLICT (version_id) DO UPDATE SET status = 'pending'`;
}

/** One live file as a summary (the caller's guard has checked it may be seen). */
export async function fileSummary(db: Tx, fileId: number): Promise<SummaryRow | null> {
  const rows = await db.$queryRaw<SummaryRow[]>`
    SELECT ${SUMMARY_COLUMNS} FROM files f ${SUMMARY_JOINS} WHERE f.id = ${fileId}::int AND f.deleted_at IS NULL`;
  return rows[0] ?? null;
}

export function textStatusOfFile(db: Tx, fileId: number) {
  return db.file.findUnique({
    where: { id: fileId },
    select: {
      currentVersion: {
        select: {
          id: true,
          number: true,
          mimeType: true,
          text: {
            select: {
              status: true,
              error: true,
              truncated: true,
              extractedAt: true,
              ocrAt: true,
              ocrPages: true,
              ocrLanguages: true,
            },
          },
        },
      },
    },
  });
}

/** Rebuilds the text vectors and the file vectors of one batch of files (after a language change). */
export async function reindexBatch(db: Tx, afterId: number, size: number): Promise<number | null> {
  const rows = await db.$queryRaw<Array<{ id: number }>>`
    SELECT id FROM files WHERE id > ${afterId}::int ORDER BY id LIMIT ${size}::int`;
  if (!rows.length) return null;
  const ids = rows.map((r) => r.id);
  await db.$executeRaw`
    UPDATE version_texts vt SET search_vector = quire_text_vector(vt.text)
      FROM files f WHERE f.id = ANY(${ids}::int[]) AND vt.version_id = f.current_version_id AND vt.status = 'done'`;
  await db.$executeRaw`
    UPDATE files f SET search_vector = quire_file_search_vector(f.id, f.name, f.current_version_id)
     WHERE f.id = ANY(${ids}::int[])`;
  return ids.at(-1) ?? null;
}
