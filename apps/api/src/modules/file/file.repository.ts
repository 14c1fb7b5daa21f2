import { type Db, Prisma } from '@quire/db';
import type { Tx } from '../../lib/deps.js';
import { subscribersOf } from '../../lib/file-events.js';
import { DEFAULT_MAX_ATTEMPTS, JOBS_CHANNEL } from '../../lib/jobs/queue.js';
import { queryRows, readRows } from '../../lib/sql.js';
import { SUMMARY_COLUMNS, type SummaryRow, summaryFrom } from './file-lists.repository.js';

// The files area's queries: files, versions, attachments, comments, follows and favourites.
// The lists are file-lists.repository.ts, the metadata values file-values.repository.ts, a
// file's grants and links file-sharing.repository.ts. Lists filter in SQL (lib/visibility.ts),
// never after the query.

export async function liveCategory(tx: Tx, id: number) {
  const [row] = await readRows<{
    id: number;
    name: string;
    incrementalPrefix: string;
    nextIncremental: number;
  }>(
    tx,
    Prisma.sql`SELECT id, name, incremental_prefix AS "incrementalPrefix", next_incremental AS "nextIncremental"
      FROM categories WHERE id = ${id}::int AND deleted_at IS NULL`,
    'quire_live_category',
  );
  return row ?? null;
}

/**
 * Takes `n` running numbers of a live category under its row lock (two uploads never share
 * one); null when the category is gone.
 */
export async function takeIncrementals(tx: Tx, categoryId: number, n: number): Promise<number | null> {
  const rows = await tx.$queryRaw<Array<{ first: number }>>`
    UPDATE categories SET next_incremental = next_incremental + ${n}::int
     WHERE id = ${categoryId}::int AND deleted_at IS NULL
    RETURNING next_incremental - ${n}::int AS first`;
  return rows[0]?.first ?? null;
}

interface NewUploadRow {
  name: string;
  blobId: string;
  size: number;
  mimeType: string;
  /** The file's audit message. */
  message: string;
}

/** One new-upload call: its files go into one category, for one uploader. */
export interface UploadEntry {
  folderId: number;
  ownerId: number;
  actor: { userId: number | null; ip?: string | null };
  uploads: NewUploadRow[];
}

/**
 * The files of one or more new-upload calls, in ONE statement (so one round trip and one
 * commit for all of them: see createUploads' group commit): for each upload its blob row
 * (kept if there), file (the uploader's, unindexed, with its category's next running number),
 * first version, `file.uploaded` audit event and one `uploaded` file event job per area that
 * takes uploads (lib/file-events.ts subscribersOf), and the workers' wake-up at commit. Ids are drawn from the sequences
 * first, so a file names its current version as it is inserted (the foreign keys are checked
 * at the statement's end). The categories' rows are locked last, once the versions are in.
 * Answers, per call, the new files' summary rows in upload order, or null when its category
 * is gone (nothing of that call is written). A category deleted between the statement's first
 * look and its lock fails the whole statement on the versions' foreign key: nothing is written.
 */
export async function insertUploads(db: Tx, entries: UploadEntry[]): Promise<Array<SummaryRow[] | null>> {
  return byEntry(
    entries,
    await db.$queryRaw<Array<SummaryRow & { entry: number }>>(insertUploadsSql(entries)),
  );
}

/**
 * insertUploads on its own (its one statement is its transaction), straight on the pool as a
 * prepared statement: each connection parses and plans it once, not on every upload (its
 * planning took as long as its run), and Prisma's query handling is skipped. The group
 * writer of createUploads goes this way; a caller with a transaction of its own uses
 * insertUploads.
 */
export async function insertUploadsAlone(
  db: Db,
  entries: UploadEntry[],
): Promise<Array<SummaryRow[] | null>> {
  const sql = insertUploadsSql(entries);
  return byEntry(entries, await queryRows<SummaryRow & { entry: number }>(db, sql, 'quire_insert_uploads'));
}

function byEntry(entries: UploadEntry[], found: Array<SummaryRow & { entry: number }>) {
  return entries.map((_, e) => {
    const mine = found.filter((r) => r.entry === e).map(({ entry: _entry, ...row }) => row as SummaryRow);
    return mine.length ? mine : null;
  });
}

/** insertUploads' statement (its rows: the summaries, each with `entry`, its call's index). */
export function insertUploadsSql(entries: UploadEntry[]) {
  const rows = entries.flatMap((entry, e) => entry.uploads.map((u) => ({ ...u, e, entry })));
  const col = <T>(f: (r: (typeof rows)[number]) => T) => rows.map(f);
  return Prisma.sql`
    WITH given AS (
      SELECT u.*
        FROM unnest(${col((r) => r.e)}::int[], ${col((r) => r.entry.folderId)}::int[],
                    ${col((r) => r.entry.ownerId)}::int[], ${col((r) => r.entry.actor.userId)}::int[],
                    ${col((r) => r.entry.actor.ip ?? null)}::text[], ${col((r) => r.name)}::text[],
                    ${col((r) => r.blobId)}::text[], ${col((r) => BigInt(r.size))}::bigint[],
                    ${col((r) => r.mimeType)}::text[], ${col((r) => r.message)}::text[])
             WITH ORDINALITY AS u(e, folder_id, owner_id, actor_id, actor_ip, name, blob_id, size, mime_type, message, ord)
       WHERE EXISTS (SELECT 1 FROM categories c WHERE c.id = u.folder_id AND c.deleted_at IS NULL)
    ), input AS MATERIALIZED (
      SELECT g.*, nextval('files_id_seq')::int AS file_id,
             nextval('file_versions_id_seq')::int AS version_id,
             (row_number() OVER (PARTITION BY g.folder_id ORDER BY g.ord))::int AS rank,
             now() AT TIME ZONE 'UTC' AS at
        FROM given g
    ), new_blobs AS (
      INSERT INTO blobs (id, size, mime_type)
      SELECT DISTINCT ON (i.blob_id) i.blob_id, i.size, i.mime_type FROM input i ORDER BY i.blob_id
      ON CONFLICT (id) DO NOTHING
    ), new_versions AS (
      INSERT INTO file_versions (id, file_id, number, blob_id, original_name, mime_type, size, author_id, created_at)
      SELECT i.version_id, i.file_id, 1, i.blob_id, i.name, i.mime_type, i.size, i.owner_id, i.at
        FROM input i ORDER BY i.ord
      RETURNING *
    ), cat AS (
      -- Last, once the versions are in (the subquery makes them go first): the categories'
      -- rows are locked from here to the commit only.
      UPDATE categories c SET next_incremental = c.next_incremental + n.count
        FROM (SELECT folder_id, count(*)::int AS count FROM input GROUP BY folder_id) n
       WHERE c.id = n.folder_id AND c.deleted_at IS NULL
         AND (SELECT count(*) FROM new_versions) = (SELECT count(*) FROM input)
      RETURNING c.id, c.next_incremental - n.count AS first
    ), numbered AS (
      SELECT i.*, cat.first + i.rank - 1 AS incremental FROM input i JOIN cat ON cat.id = i.folder_id
    ), new_files AS (
      INSERT INTO files (id, name, category_id, index_status, owner_id, current_version_id,
                         incremental_value, created_at, updated_at)
      SELECT i.file_id, i.name, i.folder_id, 'unindexed', i.owner_id, i.version_id, i.incremental, i.at, i.at
        FROM numbered i ORDER BY i.ord
      RETURNING *
    ), events AS (
      INSERT INTO audit_events (user_id, ip, type, action, message, target_type, target_id, details, created_at)
      SELECT i.actor_id, i.actor_ip, 'file', 'file.uploaded', i.message, 'file', i.file_id::text,
             jsonb_build_object('folder_id', i.folder_id, 'blob_id', i.blob_id, 'size', i.size,
                                'mime_type', i.mime_type),
             i.at
        FROM numbered i ORDER BY i.ord
    ), jobs_added AS (
      INSERT INTO jobs (kind, payload, max_attempts, run_at, created_at)
      SELECT k.kind,
             jsonb_build_object('type', 'uploaded', 'file_id', i.file_id, 'version_id', i.version_id,
                                'category_id', i.folder_id, 'actor_id', i.actor_id),
             ${DEFAULT_MAX_ATTEMPTS}::int, i.at, i.at
        FROM numbered i
       CROSS JOIN unnest(${subscribersOf('uploaded')}::text[]) WITH ORDINALITY AS k(kind, n)
       ORDER BY i.ord, k.n
      RETURNING kind
    )
    SELECT ${SUMMARY_COLUMNS}, i.e AS entry,
           (SELECT count(pg_notify(${JOBS_CHANNEL}, d.kind)) FROM (SELECT DISTINCT kind FROM jobs_added) d) AS woken
      FROM ${summaryFrom(Prisma.sql`new_files`, Prisma.sql`new_versions`)}
      JOIN input i ON i.file_id = f.id
     ORDER BY i.ord`;
}

// ---------------------------------------------------------------------------------------------
// One file

/** A file and what its page shows. */
export function findFileDetail(tx: Tx, id: number, options: { trashed?: boolean } = {}) {
  const person = { select: { id: true, username: true, firstName: true, lastName: true } };
  return tx.file.findFirst({
    where: { id, deletedAt: options.trashed ? { not: null } : null },
    include: {
      category: { select: { id: true, name: true, incrementalPrefix: true, deletedAt: true } },
      owner: person,
      lockedBy: person,
      checkedOutBy: person,
      versions: { orderBy: { number: 'desc' }, include: { author: person } },
      comments: { where: { deletedAt: null }, orderBy: { createdAt: 'asc' }, include: { author: person } },
      attachments: { orderBy: [{ createdAt: 'asc' }, { id: 'asc' }], include: { uploadedBy: person } },
      followers: { orderBy: { createdAt: 'asc' }, include: { user: person } },
      shares: { orderBy: { createdAt: 'desc' }, include: { createdBy: person } },
    },
  });
}
export type FileDetailRow = NonNullable<Awaited<ReturnType<typeof findFileDetail>>>;

export async function isFavourite(tx: Tx, fileId: number, userId: number) {
  return (await tx.fileFavourite.count({ where: { fileId, userId } })) > 0;
}

export interface LockedFile {
  id: number;
  name: string;
  category_id: number | null;
  owner_id: number;
  index_status: 'unindexed' | 'indexed';
  incremental_value: number | null;
  current_version_id: number | null;
  locked_by_id: number | null;
  checked_out_by_id: number | null;
  has_own_permissions: boolean;
  deleted_at: Date | null;
  lock_holder_name: string | null;
  checkout_holder_name: string | null;
}

/** The live files of categories `categoryIds`, by id. */
export async function liveFileIdsIn(tx: Tx, categoryIds: number[]): Promise<number[]> {
  const rows = await tx.file.findMany({
    where: { categoryId: { in: categoryIds }, deletedAt: null },
    select: { id: true },
    orderBy: { id: 'asc' },
  });
  return rows.map((r) => r.id);
}

/** Files `ids` with their row locks taken (for the rest of the transaction), in id order. */
export function lockFiles(tx: Tx, ids: number[], options: { trashed?: boolean } = {}) {
  const state = options.trashed ? Prisma.sql`f.deleted_at IS NOT NULL` : Prisma.sql`f.deleted_at IS NULL`;
  return tx.$queryRaw<LockedFile[]>`
    SELECT f.id, f.name, f.category_id, f.owner_id, f.index_status::text AS index_status,
           f.incremental_value, f.current_version_id, f.locked_by_id, f.checked_out_by_id,
           f.has_own_permissions, f.deleted_at,
           (SELECT coalesce(nullif(trim(u.first_name || ' ' || u.last_name), ''), u.username) FROM users u WHERE u.id = f.locked_by_id) AS lock_holder_name,
           (SELECT coalesce(nullif(trim(u.first_name || ' ' || u.last_name), ''), u.username) FROM users u WHERE u.id = f.checked_out_by_id) AS checkout_holder_name
      FROM files f
     WHERE f.id = ANY(${ids}::int[]) AND ${state}
     ORDER BY f.id
       FOR UPDATE OF f`;
}

export function updateFile(tx: Tx, id: number, data: Prisma.FileUncheckedUpdateInput) {
  return tx.file.update({ where: { id }, data });
}

/**
 * Puts files `ids` in category `categoryId` with running numbers `numbers` (one a file, in the
 * same order), in one statement; `updated_at` is the server's clock, as Prisma's @updatedAt.
 */
export async function moveFiles(tx: Tx, ids: number[], categoryId: number, numbers: number[]) {
  await tx.$executeRaw`
    UPDATE files f
       SET category_id = ${categoryId}::int, incremental_value = m.number,
           updated_at = ${new Date().toISOString()}::timestamptz AT TIME ZONE 'UTC'
      FROM unnest(${ids}::int[], ${numbers}::int[]) AS m(id, number)
     WHERE f.id = m.id`;
}

/** Sets whom a live unindexed file is left for; the number of files changed (0 or 1). */
export async function setUnindexedFor(
  tx: Tx,
  id: number,
  data: { ownerId?: number; unindexedGroupId: number | null },
) {
  const { count } = await tx.file.updateMany({
    where: { id, indexStatus: 'unindexed', deletedAt: null },
    data,
  });
  return count;
}

/**
 * Records stored content in `blobs`. One statement that never locks an existing row (ON
 * CONFLICT DO NOTHING): uploads of the same content do not queue on it, except behind the
 * one transaction that is inserting it.
 */
export function upsertBlob(tx: Tx, blob: { id: string; size: number; mimeType: string }) {
  return tx.$executeRaw`
    INSERT INTO blobs (id, size, mime_type) VALUES (${blob.id}, ${BigInt(blob.size)}, ${blob.mimeType})
    ON CONFLICT (id) DO NOTHING`;
}

/** `upsertBlob` for many contents in one statement, in the order given (the first of a repeat wins). */
export async function upsertBlobs(tx: Tx, blobs: Array<{ id: string; size: number; mimeType: string }>) {
  if (!blobs.length) return;
  await tx.$executeRaw`
    INSERT INTO blobs (id, size, mime_type)
    SELECT b.id, b.size, b.mime_type
      FROM unnest(${blobs.map((b) => b.id)}::text[], ${blobs.map((b) => BigInt(b.size))}::bigint[],
                  ${blobs.map((b) => b.mimeType)}::text[]) WITH ORDINALITY AS b(id, size, mime_type, n)
     ORDER BY b.n
    ON CONFLICT (id) DO NOTHING`;
}

export function createFile(tx: Tx, data: Prisma.FileUncheckedCreateInput) {
  return tx.file.create({ data, select: { id: true } });
}

export async function nextVersionNumber(tx: Tx, fileId: number): Promise<number> {
  const top = await tx.fileVersion.aggregate({ where: { fileId }, _max: { number: true } });
  return (top._max.number ?? 0) + 1;
}

export function createVersion(tx: Tx, data: Prisma.FileVersionUncheckedCreateInput) {
  return tx.fileVersion.create({ data });
}

export function findVersion(tx: Tx, id: number) {
  return tx.fileVersion.findUnique({ where: { id } });
}

/** The file of each version or attachment id, for live files only. */
export async function fileIdsOf(tx: Tx, kind: 'version' | 'attachment', ids: number[]) {
  const rows =
    kind === 'version'
      ? await tx.fileVersion.findMany({
          where: { id: { in: ids }, file: { deletedAt: null } },
          select: { id: true, fileId: true },
        })
      : await tx.attachment.findMany({
          where: { id: { in: ids }, file: { deletedAt: null } },
          select: { id: true, fileId: true },
        });
  return new Map(rows.map((r) => [r.id, r.fileId]));
}

// ---------------------------------------------------------------------------------------------
// Users

export async function activeUserIds(tx: Tx, ids: number[]) {
  const rows = await tx.user.findMany({
    where: { id: { in: ids.filter((id) => id > 0 && id < 2 ** 31) }, status: 'active' },
    select: { id: true },
  });
  return new Set(rows.map((r) => r.id));
}

// ---------------------------------------------------------------------------------------------
// Attachments, views

/** Attachments in one statement, answered in the order given (with their uploader). */
export async function createAttachments(tx: Tx, data: Prisma.AttachmentCreateManyInput[]) {
  const rows = await tx.attachment.createManyAndReturn({
    data,
    include: { uploadedBy: { select: { id: true, username: true, firstName: true, lastName: true } } },
  });
  return rows.sort((a, b) => a.id - b.id);
}

export function findAttachments(tx: Tx, ids: number[]) {
  return tx.attachment.findMany({ where: { id: { in: ids } } });
}

export async function recordView(tx: Tx, userId: number, fileId: number, at: Date, preview: boolean) {
  await tx.fileView.upsert({
    where: { userId_fileId: { userId, fileId } },
    create: { userId, fileId, lastViewedAt: at, lastPreviewedAt: preview ? at : null },
    update: preview ? { lastPreviewedAt: at } : { lastViewedAt: at, viewCount: { increment: 1 } },
  });
}

/** Deletes file rows (their dependants go with them), their current versions let go first. */
export async function deleteFileRows(tx: Tx, ids: number[]) {
  await tx.file.updateMany({ where: { id: { in: ids } }, data: { currentVersionId: null } });
  await tx.$executeRaw`DELETE FROM files WHERE id = ANY(${ids}::int[])`;
}
