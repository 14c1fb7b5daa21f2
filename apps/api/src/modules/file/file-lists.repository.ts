import { Prisma } from '@quire/db';
import type { Tx } from '../../lib/deps.js';
import type { FilePlace } from '../../lib/file-cursor.js';
import type { PageQuery } from '../../lib/paging.js';
import { likePattern, readRows } from '../../lib/sql.js';
import { fileVisible, inUnindexedGroup, type Scope } from '../../lib/visibility.js';
import { epochsOf, type SeenSets, seenEpochColumn, seenInCategory } from '../../lib/visible-sets.js';

// The files area's lists: the summary row every list shows, the caller's own lists
// (unindexed, checked out, favourites) and a category's file list. Lists filter in SQL
// (lib/visibility.ts), never after the query.

// ---------------------------------------------------------------------------------------------
// Rows of every list

export interface PersonRow {
  id: number;
  username: string;
  first_name: string;
  last_name: string;
}

export interface SummaryRow {
  id: number;
  name: string;
  category_id: number | null;
  category_name: string | null;
  prefix: string | null;
  incremental_value: number | null;
  index_status: 'unindexed' | 'indexed';
  owner_id: number;
  owner_username: string;
  owner_first: string;
  owner_last: string;
  mime_type: string;
  size: bigint | number;
  version: number;
  lock_id: number | null;
  lock_username: string | null;
  lock_first: string | null;
  lock_last: string | null;
  co_id: number | null;
  co_username: string | null;
  co_first: string | null;
  co_last: string | null;
  created_at: Date;
  updated_at: Date;
  deleted_at: Date | null;
  deleted_by_id: number | null;
  category_live: boolean;
}

/** The columns of a summary row (alias f = files). */
export const SUMMARY_COLUMNS = Prisma.sql`
  f.id, f.name, f.category_id, c.name AS category_name, c.incremental_prefix AS prefix,
  f.incremental_value, f.index_status::text AS index_status,
  o.id AS owner_id, o.username AS owner_username, o.first_name AS owner_first, o.last_name AS owner_last,
  coalesce(v.mime_type, 'application/octet-stream') AS mime_type, coalesce(v.size, 0) AS size,
  coalesce(v.number, 0) AS version,
  lu.id AS lock_id, lu.username AS lock_username, lu.first_name AS lock_first, lu.last_name AS lock_last,
  cu.id AS co_id, cu.username AS co_username, cu.first_name AS co_first, cu.last_name AS co_last,
  f.created_at, f.updated_at, f.deleted_at, f.deleted_by_id,
  (c.id IS NOT NULL AND c.deleted_at IS NULL) AS category_live`;

/**
 * The joins a summary row needs, from `files` rows and `versions` rows (default the tables;
 * a statement that inserts files passes the rows it returns).
 */
export const summaryFrom = (
  files = Prisma.sql`files`,
  versions = Prisma.sql`file_versions`,
) => Prisma.sql`${files} f
  LEFT JOIN categories c ON c.id = f.category_id
  JOIN users o ON o.id = f.owner_id
  LEFT JOIN ${versions} v ON v.id = f.current_version_id
  LEFT JOIN users lu ON lu.id = f.locked_by_id
  LEFT JOIN users cu ON cu.id = f.checked_out_by_id`;

/** The joins a summary row needs. */
export const SUMMARY_FROM = summaryFrom();

async function page(
  tx: Tx,
  where: Prisma.Sql,
  order: Prisma.Sql,
  q: PageQuery,
  from: Prisma.Sql = SUMMARY_FROM,
): Promise<{ rows: SummaryRow[]; total: number }> {
  const [rows, count] = await Promise.all([
    tx.$queryRaw<SummaryRow[]>`SELECT ${SUMMARY_COLUMNS} FROM ${from} WHERE ${where}
      ORDER BY ${order} LIMIT ${q.quantity} OFFSET ${(q.page - 1) * q.quantity}`,
    tx.$queryRaw<Array<{ n: bigint }>>`SELECT count(*) AS n FROM ${from} WHERE ${where}`,
  ]);
  return { rows, total: Number(count[0]?.n ?? 0) };
}

export async function summaries(tx: Tx, ids: number[]): Promise<SummaryRow[]> {
  if (!ids.length) return [];
  const rows = await tx.$queryRaw<SummaryRow[]>`
    SELECT ${SUMMARY_COLUMNS} FROM ${SUMMARY_FROM} WHERE f.id = ANY(${ids}::int[])`;
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

/**
 * The unindexed files left for `userId`: their own, unless left for a group, and those left for
 * a group they are in (intake's sources and rules, files.unindexed_group_id).
 */
export function unindexedPage(tx: Tx, userId: number, folderId: number | undefined, q: PageQuery) {
  const where = Prisma.sql`f.index_status = 'unindexed' AND f.deleted_at IS NULL
    AND ((f.owner_id = ${userId}::int AND f.unindexed_group_id IS NULL) OR ${inUnindexedGroup(userId)})
    ${folderId ? Prisma.sql`AND f.category_id = ${folderId}::int` : Prisma.empty}`;
  return page(tx, where, Prisma.sql`f.created_at DESC, f.id DESC`, q);
}

/**
 * Whether an unindexed file waits in category `categoryId` for `userId` to index it: theirs, or
 * left for a group they are in (who may index it as lib/visibility.ts fileRights says).
 */
export async function unindexedWaitingIn(tx: Tx, userId: number, categoryId: number): Promise<boolean> {
  const rows = await tx.$queryRaw<Array<{ waiting: boolean }>>`
    SELECT EXISTS (SELECT 1 FROM files f
      WHERE f.category_id = ${categoryId}::int AND f.index_status = 'unindexed' AND f.deleted_at IS NULL
        AND (f.owner_id = ${userId}::int OR ${inUnindexedGroup(userId)})) AS waiting`;
  return rows[0]?.waiting ?? false;
}

export function checkedOutPage(tx: Tx, scope: Scope, userId: number, q: PageQuery) {
  const where = Prisma.sql`f.checked_out_by_id = ${userId}::int AND f.deleted_at IS NULL AND ${fileVisible(scope)}`;
  return page(tx, where, Prisma.sql`f.checked_out_at DESC, f.id DESC`, q);
}

export function favouritesPage(tx: Tx, scope: Scope, userId: number, q: PageQuery) {
  const from = Prisma.sql`${SUMMARY_FROM} JOIN file_favourites fav ON fav.file_id = f.id AND fav.user_id = ${userId}::int`;
  const where = Prisma.sql`f.deleted_at IS NULL AND ${fileVisible(scope)}`;
  return page(tx, where, Prisma.sql`fav.created_at DESC, f.id DESC`, q, from);
}

// ---------------------------------------------------------------------------------------------
// The category's file list

export interface CategoryFilter {
  search?: string;
  startDate?: string;
  endDate?: string;
  fields: Array<{ fieldId: number; fieldName?: string }>;
}

function fieldMatch(fieldId: number, text: string | undefined): Prisma.Sql {
  if (text === undefined || text === '')
    return Prisma.sql`EXISTS (SELECT 1 FROM file_field_values fv WHERE fv.file_id = f.id AND fv.field_id = ${fieldId}::int)`;
  const like = likePattern(text);
  const exact = text.trim().toLowerCase();
  return Prisma.sql`EXISTS (
    SELECT 1 FROM file_field_values fv
      LEFT JOIN value_list_items i ON i.id = fv.value_item_id
      LEFT JOIN users vu ON vu.id = fv.value_user_id
     WHERE fv.file_id = f.id AND fv.field_id = ${fieldId}::int
       AND (lower(fv.value_text) LIKE ${like}
            OR fv.value_number::text = ${exact} OR trim_scale(fv.value_number)::text = ${exact}
            OR fv.value_date::text = ${exact}
            OR (fv.value_boolean IS NOT NULL AND (CASE WHEN fv.value_boolean THEN 'yes' ELSE 'no' END = ${exact} OR fv.value_boolean::text = ${exact}))
            OR lower(i.label) LIKE ${like} OR i.key::text = ${exact}
            OR lower(vu.username) LIKE ${like} OR lower(vu.first_name || ' ' || vu.last_name) LIKE ${like}))`;
}

/**
 * The WHERE of a category's list: live, indexed, seen by the caller's sets (read for the
 * request or kept between calls, lib/visible-sets.ts, so no statement runs the rights
 * function), filtered.
 */
export function categoryWhere(seen: SeenSets, categoryId: number, filter: CategoryFilter): Prisma.Sql {
  const parts: Prisma.Sql[] = [
    Prisma.sql`f.category_id = ${categoryId}::int`,
    Prisma.sql`f.deleted_at IS NULL`,
    Prisma.sql`f.index_status = 'indexed'`,
    seenInCategory(seen, categoryId),
  ];
  if (filter.search) {
    const like = likePattern(filter.search);
    parts.push(
      Prisma.sql`(lower(f.name) LIKE ${like} OR lower(coalesce(c.incremental_prefix, '') || f.incremental_value::text) LIKE ${like})`,
    );
  }
  if (filter.startDate) parts.push(Prisma.sql`f.created_at >= ${filter.startDate}::date`);
  if (filter.endDate) parts.push(Prisma.sql`f.created_at < ${filter.endDate}::date + 1`);
  for (const f of filter.fields) parts.push(fieldMatch(f.fieldId, f.fieldName));
  return Prisma.join(parts, ' AND ');
}

/** The files older than a place in the list (a cursor's, or the last row of a batch). */
const olderThan = (place: FilePlace) => Prisma.sql`(f.created_at, f.id) < (${place.at}, ${place.id}::int)`;

/**
 * One page of a category's list and how many files it holds: by offset, or (keyset, with
 * `before`) the files older than a cursor's place, read from the category's index at once.
 */
export async function categoryPage(
  tx: Tx,
  seen: SeenSets,
  categoryId: number,
  filter: CategoryFilter,
  q: PageQuery & { before?: FilePlace },
) {
  const sql = categoryPageSql(seen, categoryId, filter, q);
  const [rows, count] = await Promise.all([
    readRows<SummaryRow & { seen_epoch?: string }>(tx, sql.rows),
    readRows<{ n: number; seen_epoch?: string }>(tx, sql.count),
  ]);
  return { rows, total: Number(count[0]?.n ?? 0), epochs: epochsOf(rows[0], count[0]) };
}

/** categoryPage's two statements: the page's rows and the list's count (bench/search.ts runs them bare). */
export function categoryPageSql(
  seen: SeenSets,
  categoryId: number,
  filter: CategoryFilter,
  q: PageQuery & { before?: FilePlace },
): { rows: Prisma.Sql; count: Prisma.Sql } {
  const where = categoryWhere(seen, categoryId, filter);
  // Taking a person's sets, each statement answers the epoch of its snapshot (byKeptSets).
  const epoch = seenEpochColumn(seen);
  const window = q.before
    ? Prisma.sql`AND ${olderThan(q.before)} ORDER BY f.created_at DESC, f.id DESC LIMIT ${q.quantity}`
    : Prisma.sql`ORDER BY f.created_at DESC, f.id DESC LIMIT ${q.quantity} OFFSET ${(q.page - 1) * q.quantity}`;
  return {
    rows: Prisma.sql`SELECT ${SUMMARY_COLUMNS}${epoch} FROM ${SUMMARY_FROM} WHERE ${where} ${window}`,
    // The count needs no person or version: only the category, for the search filter.
    count: Prisma.sql`SELECT count(*)::int AS n${epoch} FROM files f LEFT JOIN categories c ON c.id = f.category_id WHERE ${where}`,
  };
}

/** Every row of a category's filtered list, in pages of `batch`, for the export. */
export async function* categoryRows(
  tx: Tx,
  seen: SeenSets,
  categoryId: number,
  filter: CategoryFilter,
  batch = 1000,
): AsyncGenerator<SummaryRow[]> {
  const where = categoryWhere(seen, categoryId, filter);
  let after: FilePlace | null = null;
  for (;;) {
    const cursor: Prisma.Sql = after ? Prisma.sql`AND ${olderThan(after)}` : Prisma.empty;
    const rows: SummaryRow[] = await tx.$queryRaw<SummaryRow[]>`
      SELECT ${SUMMARY_COLUMNS} FROM ${SUMMARY_FROM} WHERE ${where} ${cursor}
      ORDER BY f.created_at DESC, f.id DESC LIMIT ${batch}`;
    if (!rows.length) return;
    yield rows;
    const last = rows[rows.length - 1] as SummaryRow;
    after = { at: last.created_at, id: last.id };
    if (rows.length < batch) return;
  }
}
