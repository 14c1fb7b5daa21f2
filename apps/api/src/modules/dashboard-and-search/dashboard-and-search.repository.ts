import { Prisma } from '@quire/db';
import type { Tx } from '../../lib/deps.js';
import { utc } from '../../lib/jobs/queue.js';
import { fileVisible, type Scope, visibleCategoryIds } from '../../lib/visibility.js';

// The queries of the dashboard, the search and the filters. Each list filters in the SQL with
// fileVisible (lib/visibility.ts), so pages and counts hold only what the caller may see.
// The SQL is built here (and exported) so that `pnpm bench:search` runs exactly these
// statements bare through `pg` as its baseline.

/** Counting stops here: past it a page says "10,000+". */
export const COUNT_CAP = 10_000;

const LIVE = Prisma.sql`f.deleted_at IS NULL AND f.index_status = 'indexed'`;

/** The columns of a file summary, from `files f` and the joins of SUMMARY_JOINS. */
const SUMMARY_COLUMNS = Prisma.sql`
  f.id, f.name, f.category_id, c.name AS category_name, f.owner_id, o.username AS owner_username,
  o.first_name AS owner_first_name, o.last_name AS owner_last_name, v.mime_type, v.size,
  f.locked_by_id IS NOT NULL AS locked, f.checked_out_by_id IS NOT NULL AS checked_out,
  f.created_at, f.updated_at`;
const SUMMARY_JOINS = Prisma.sql`
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
  size: bigint | null;
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

const page = (w: Window) => Prisma.sql`LIMIT ${w.limit}::int OFFSET ${w.offset}::int`;
const noTask = Prisma.sql`NULL::int AS task_id, NULL::int AS step_id, NULL::text AS step_name,
  NULL::int AS workflow_id, NULL::text AS workflow_name, NULL::timestamp AS due_at`;

/** The dashboard's four tables: the rows of one page, and how many rows (counting at most COUNT_CAP + 1). */
export const dashboardSql = {
  previewed: (scope: Scope, w: Window) => ({
    rows: Prisma.sql`
      SELECT ${SUMMARY_COLUMNS}, fv.last_viewed_at AS at, ${noTask}
        FROM file_views fv JOIN files f ON f.id = fv.file_id ${SUMMARY_JOINS}
       WHERE fv.user_id = ${scope.userId}::int AND f.deleted_at IS NULL AND ${fileVisible(scope)}
       ORDER BY fv.last_viewed_at DESC, f.id DESC ${page(w)}`,
    count: Prisma.sql`
      SELECT count(*)::int AS n FROM (SELECT 1 FROM file_views fv JOIN files f ON f.id = fv.file_id
       WHERE fv.user_id = ${scope.userId}::int AND f.deleted_at IS NULL AND ${fileVisible(scope)}
       LIMIT ${COUNT_CAP + 1}::int) x`,
  }),
  checked_out: (scope: Scope, w: Window) => ({
    rows: Prisma.sql`
      SELECT ${SUMMARY_COLUMNS}, coalesce(f.checked_out_at, f.updated_at) AS at, ${noTask}
        FROM files f ${SUMMARY_JOINS}
       WHERE f.checked_out_by_id = ${scope.userId}::int AND f.deleted_at IS NULL AND ${fileVisible(scope)}
       ORDER BY f.checked_out_at DESC NULLS LAST, f.id DESC ${page(w)}`,
    count: Prisma.sql`
      SELECT count(*)::int AS n FROM (SELECT 1 FROM files f
       WHERE f.checked_out_by_id = ${scope.userId}::int AND f.deleted_at IS NULL AND ${fileVisible(scope)}
       LIMIT ${COUNT_CAP + 1}::int) x`,
  }),
  recent: (scope: Scope, w: Window) => ({
    rows: Prisma.sql`
      SELECT ${SUMMARY_COLUMNS}, f.updated_at AS at, ${noTask}
        FROM files f ${SUMMARY_JOINS}
       WHERE ${LIVE} AND ${fileVisible(scope)}
       ORDER BY f.updated_at DESC, f.id DESC ${page(w)}`,
    count: Prisma.sql`
      SELECT count(*)::int AS n FROM (SELECT 1 FROM files f WHERE ${LIVE} AND ${fileVisible(scope)}
       LIMIT ${COUNT_CAP + 1}::int) x`,
  }),
  assigned: (scope: Scope, w: Window) => ({
    rows: Prisma.sql`
      SELECT ${SUMMARY_COLUMNS}, t.created_at AS at, t.id AS task_id, s.id AS step_id, s.name AS step_name,
             wf.id AS workflow_id, wf.name AS workflow_name, t.due_at
        FROM workflow_tasks t
        JOIN workflow_instances wi ON wi.id = t.instance_id AND wi.status = 'running'
        JOIN workflow_steps s ON s.id = t.step_id
        JOIN workflows wf ON wf.id = wi.workflow_id
        JOIN files f ON f.id = wi.file_id ${SUMMARY_JOINS}
       WHERE t.user_id = ${scope.userId}::int AND t.status = 'open' AND f.deleted_at IS NULL AND ${fileVisible(scope)}
       ORDER BY t.created_at DESC, t.id DESC ${page(w)}`,
    count: Prisma.sql`
      SELECT count(*)::int AS n FROM (SELECT 1 FROM workflow_tasks t
        JOIN workflow_instances wi ON wi.id = t.instance_id AND wi.status = 'running'
        JOIN files f ON f.id = wi.file_id
       WHERE t.user_id = ${scope.userId}::int AND t.status = 'open' AND f.deleted_at IS NULL AND ${fileVisible(scope)}
       LIMIT ${COUNT_CAP + 1}::int) x`,
  }),
};

export async function dashboardTable(db: Tx, sql: { rows: Prisma.Sql; count: Prisma.Sql }) {
  const [rows, count] = await Promise.all([
    db.$queryRaw<DashboardRow[]>(sql.rows),
    db.$queryRaw<Array<{ n: number }>>(sql.count),
  ]);
  return { rows, total: count[0]?.n ?? 0 };
}

// ---- search and filters ---------------------------------------------------------------------

/** A metadata condition, checked against its field's type by the service. */
export type FieldCondition =
  | { fieldId: number; kind: 'text'; value: string }
  | { fieldId: number; kind: 'number'; min: number | null; max: number | null }
  | { fieldId: number; kind: 'date'; min: string | null; max: string | null }
  | { fieldId: number; kind: 'boolean'; value: boolean }
  | { fieldId: number; kind: 'items'; itemIds: number[] }
  | { fieldId: number; kind: 'user'; userId: number };

export interface FileFilter {
  categoryId?: number;
  includeSubcategories?: boolean;
  /** Created at or after (UTC). */
  from?: Date;
  /** Created before (UTC). */
  to?: Date;
  ownerId?: number;
  workflowStepId?: number;
  locked?: boolean;
  checkedOut?: boolean;
  fields?: FieldCondition[];
}

/** What was typed, as the parts the SQL needs. */
export interface SearchTerms {
  /** `'word':* & 'other':*` for to_tsquery (prefix matches). */
  tsquery: string;
  /** `%word%` per word (LIKE on the lower-cased name; all must match). */
  likes: string[];
}

const escapeLike = (s: string) => s.replace(/[\\%_]/g, '\\$&');

/** The words of a search (letters and digits), at most 8. */
export function searchTerms(text: string): SearchTerms | null {
  const words = (text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).slice(0, 8);
  if (!words.length) return null;
  return {
    tsquery: words.map((w) => `'${w}':*`).join(' & '),
    likes: words.map((w) => `%${escapeLike(w)}%`),
  };
}

function fieldCondition(c: FieldCondition): Prisma.Sql {
  const base = Prisma.sql`v.file_id = f.id AND v.field_id = ${c.fieldId}::int`;
  let cond: Prisma.Sql;
  switch (c.kind) {
    case 'text':
      cond = Prisma.sql`lower(v.value_text) = lower(${c.value})`;
      break;
    case 'number':
      cond = Prisma.join(
        [
          Prisma.sql`v.value_number IS NOT NULL`,
          ...(c.min !== null ? [Prisma.sql`v.value_number >= ${c.min}::numeric`] : []),
          ...(c.max !== null ? [Prisma.sql`v.value_number <= ${c.max}::numeric`] : []),
        ],
        ' AND ',
      );
      break;
    case 'date':
      cond = Prisma.join(
        [
          Prisma.sql`v.value_date IS NOT NULL`,
          ...(c.min !== null ? [Prisma.sql`v.value_date >= ${c.min}::date`] : []),
          ...(c.max !== null ? [Prisma.sql`v.value_date <= ${c.max}::date`] : []),
        ],
        ' AND ',
      );
      break;
    case 'boolean':
      cond = Prisma.sql`v.value_boolean = ${c.value}`;
      break;
    case 'items':
      cond = Prisma.sql`v.value_item_id = ANY(${c.itemIds}::int[])`;
      break;
    case 'user':
      cond = Prisma.sql`v.value_user_id = ${c.userId}::int`;
      break;
  }
  return Prisma.sql`EXISTS (SELECT 1 FROM file_field_values v WHERE ${base} AND ${cond})`;
}

function filterConditions(f: FileFilter): Prisma.Sql[] {
  const parts: Prisma.Sql[] = [];
  if (f.categoryId !== undefined) {
    parts.push(
      f.includeSubcategories === false
        ? Prisma.sql`f.category_id = ${f.categoryId}::int`
        : Prisma.sql`f.category_id IN (
            WITH RECURSIVE sub AS (
              SELECT id FROM categories WHERE id = ${f.categoryId}::int AND deleted_at IS NULL
              UNION ALL
              SELECT c.id FROM categories c JOIN sub ON c.parent_id = sub.id WHERE c.deleted_at IS NULL)
            SELECT id FROM sub)`,
    );
  }
  if (f.from) parts.push(Prisma.sql`f.created_at >= (${utc(f.from)}::timestamptz AT TIME ZONE 'UTC')`);
  if (f.to) parts.push(Prisma.sql`f.created_at < (${utc(f.to)}::timestamptz AT TIME ZONE 'UTC')`);
  if (f.ownerId !== undefined) parts.push(Prisma.sql`f.owner_id = ${f.ownerId}::int`);
  if (f.workflowStepId !== undefined)
    parts.push(Prisma.sql`EXISTS (SELECT 1 FROM workflow_instances wi
      WHERE wi.file_id = f.id AND wi.status = 'running' AND wi.current_step_id = ${f.workflowStepId}::int)`);
  if (f.locked !== undefined)
    parts.push(f.locked ? Prisma.sql`f.locked_by_id IS NOT NULL` : Prisma.sql`f.locked_by_id IS NULL`);
  if (f.checkedOut !== undefined)
    parts.push(
      f.checkedOut ? Prisma.sql`f.checked_out_by_id IS NOT NULL` : Prisma.sql`f.checked_out_by_id IS NULL`,
    );
  for (const c of f.fields ?? []) parts.push(fieldCondition(c));
  return parts;
}

export type FoundRow = SummaryRow & { rank: number };

/**
 * How many matches are ranked. Ranking reads each match's whole search vector (its content
 * too); a broad word that matches a third of 100,000 files took seconds. Of more matches than
 * this, the newest RANK_WINDOW are ranked and come first, the rest follow newest first: one
 * order for every page, and a broad word costs about as much as a rare one.
 */
export const RANK_WINDOW = 1000;

/**
 * One page of matching files and how many match (at most COUNT_CAP + 1). With search terms the
 * order is by rank: full-text rank of the weighted vector (name A, metadata and tags B,
 * comments C, content D), plus a bonus when every word is part of the name (trigram index,
 * partial words), among the newest RANK_WINDOW matches; without, newest first.
 */
export function findFilesSql(scope: Scope, terms: SearchTerms | null, filter: FileFilter, w: Window) {
  const where = Prisma.join([LIVE, fileVisible(scope), ...filterConditions(filter)], ' AND ');
  if (!terms) {
    return {
      // The page's ids first, then their columns: the joins run for one page, not for every
      // row before the offset.
      rows: Prisma.sql`
        SELECT ${SUMMARY_COLUMNS}, 0::float8 AS rank FROM (
          SELECT f.id, f.created_at FROM files f
           WHERE ${where} ORDER BY f.created_at DESC, f.id DESC ${page(w)}
        ) p
        JOIN files f ON f.id = p.id ${SUMMARY_JOINS}
        ORDER BY p.created_at DESC, p.id DESC`,
      count: Prisma.sql`SELECT count(*)::int AS n FROM (SELECT 1 FROM files f WHERE ${where} LIMIT ${COUNT_CAP + 1}::int) x`,
    };
  }
  const nameLike = Prisma.join(
    terms.likes.map((l) => Prisma.sql`lower(f.name) LIKE ${l}`),
    ' AND ',
  );
  const query = Prisma.sql`to_tsquery(quire_search_config(), ${terms.tsquery})`;
  // The matches as two disjoint parts, each found by its own index: names (trigram index) and
  // the rest of the full-text matches. One OR over both indexes made PostgreSQL recheck every
  // row against both conditions (a trigram match is inexact), reading each match's whole
  // search vector. Each part is taken newest first (files_created_idx for a broad word, the
  // part's own index for a rare one), `before` a row when given, at most `limit`.
  const byName = Prisma.sql`${where} AND (${nameLike})`;
  const byText = Prisma.sql`${where} AND f.search_vector @@ q.tsq AND NOT (${nameLike})`;
  const newest = (limit: number, before?: Prisma.Sql) => {
    const older = before ? Prisma.sql`AND (f.created_at, f.id) < (${before})` : Prisma.empty;
    return Prisma.sql`
      SELECT u.id, u.created_at, u.in_name FROM (
        (SELECT f.id, f.created_at, true AS in_name FROM files f
          WHERE ${byName} ${older}
          ORDER BY f.created_at DESC, f.id DESC LIMIT ${limit}::int)
        UNION ALL
        (SELECT f.id, f.created_at, false AS in_name FROM files f, q
          WHERE ${byText} ${older}
          ORDER BY f.created_at DESC, f.id DESC LIMIT ${limit}::int)
      ) u ORDER BY u.created_at DESC, u.id DESC LIMIT ${limit}::int`;
  };
  // Pages past the window: the matches older than its oldest, newest first.
  const beyond = w.offset + w.limit - RANK_WINDOW;
  const rest =
    beyond > 0
      ? Prisma.sql`UNION ALL
        SELECT r.id, 1 AS part, 0::float8 AS rank, r.created_at
          FROM (${newest(beyond, Prisma.sql`SELECT o.created_at, o.id FROM win o ORDER BY o.created_at, o.id LIMIT 1`)}) r`
      : Prisma.empty;
  const capped = (part: Prisma.Sql) =>
    Prisma.sql`(SELECT count(*) FROM (${part} LIMIT ${COUNT_CAP + 1}::int) x)`;
  return {
    rows: Prisma.sql`
      WITH q AS (SELECT ${query} AS tsq),
      win AS MATERIALIZED (${newest(RANK_WINDOW)})
      SELECT ${SUMMARY_COLUMNS}, m.rank FROM (
        SELECT p.id, p.part, p.rank, p.created_at FROM (
          SELECT win.id, 0 AS part,
                 (ts_rank(r.search_vector, q.tsq) + CASE WHEN win.in_name THEN 0.5 ELSE 0 END)::float8 AS rank,
                 win.created_at
            FROM win JOIN files r ON r.id = win.id, q
          ${rest}
        ) p
        ORDER BY p.part, p.rank DESC, p.created_at DESC, p.id DESC ${page(w)}
      ) m
      JOIN files f ON f.id = m.id ${SUMMARY_JOINS}
      ORDER BY m.part, m.rank DESC, m.created_at DESC, m.id DESC`,
    count: Prisma.sql`
      WITH q AS (SELECT ${query} AS tsq)
      SELECT least(
        ${capped(Prisma.sql`SELECT 1 FROM files f WHERE ${byName}`)}
        + ${capped(Prisma.sql`SELECT 1 FROM files f, q WHERE ${byText}`)},
        ${COUNT_CAP + 1}::int)::int AS n`,
  };
}

export async function findFiles(db: Tx, sql: { rows: Prisma.Sql; count: Prisma.Sql }) {
  const [rows, count] = await Promise.all([
    db.$queryRaw<FoundRow[]>(sql.rows),
    db.$queryRaw<Array<{ n: number }>>(sql.count),
  ]);
  return { rows, total: count[0]?.n ?? 0 };
}

/** Highlight delimiters: private-use characters removed from the text first, turned into <mark> after HTML escaping. */
export const MARK_START = '\ue000';
export const MARK_END = '\ue001';

/**
 * The best matching passage of each file's metadata, tags, comments and content (ts_headline),
 * with matches between MARK_START and MARK_END. Only the page's files are read; of long content
 * the window around the first occurrence of the first word (or its start) is given.
 */
export function snippetsSql(ids: number[], terms: SearchTerms, firstWord: string) {
  const strip = (expr: Prisma.Sql) => Prisma.sql`translate(${expr}, ${`${MARK_START}${MARK_END}`}, '  ')`;
  return Prisma.sql`
    WITH q AS (SELECT to_tsquery(quire_search_config(), ${terms.tsquery}) AS tsq)
    SELECT d.id, d.page, ts_headline(quire_search_config(), ${strip(Prisma.sql`d.doc`)}, q.tsq,
             ${`StartSel=${MARK_START}, StopSel=${MARK_END}, MaxWords=28, MinWords=10, ShortWord=2, MaxFragments=2, FragmentDelimiter=" … "`}) AS snippet
      FROM q, (
        SELECT f.id, concat_ws(' · ',
          (SELECT string_agg(concat_ws(' ', fv.value_text, fv.value_number::text, fv.value_date::text, i.label), ' · ')
             FROM file_field_values fv LEFT JOIN value_list_items i ON i.id = fv.value_item_id WHERE fv.file_id = f.id),
          (SELECT string_agg(t.name, ', ') FROM file_tags ft JOIN related_tags t ON t.id = ft.tag_id WHERE ft.file_id = f.id),
          (SELECT string_agg(left(cm.body, 2000), ' · ') FROM comments cm WHERE cm.file_id = f.id AND cm.deleted_at IS NULL),
          (SELECT substr(vt.text, greatest(1, strpos(lower(left(vt.text, 200000)), ${firstWord}) - 400), 3000)
             FROM version_texts vt WHERE vt.version_id = f.current_version_id AND vt.status = 'done')
        ) AS doc,
        -- The page the first word is on (the count of pages starting at or before it).
        (SELECT CASE WHEN cardinality(vt.page_starts) > 0 AND w.at > 0
                     THEN (SELECT count(*)::int FROM unnest(vt.page_starts) s WHERE s < w.at) END
           FROM version_texts vt, LATERAL (SELECT strpos(lower(left(vt.text, 200000)), ${firstWord}) AS at) w
          WHERE vt.version_id = f.current_version_id AND vt.status = 'done') AS page
          FROM files f WHERE f.id = ANY(${ids}::int[])
      ) d`;
}

export async function snippets(db: Tx, ids: number[], terms: SearchTerms, firstWord: string) {
  const found = new Map<number, { snippet: string; page: number | null }>();
  if (!ids.length) return found;
  const rows = await db.$queryRaw<Array<{ id: number; snippet: string | null; page: number | null }>>(
    snippetsSql(ids, terms, firstWord),
  );
  for (const r of rows)
    if (r.snippet?.includes(MARK_START)) found.set(r.id, { snippet: r.snippet, page: r.page });
  return found;
}

// ---- filter attributes ----------------------------------------------------------------------

export function visibleCategories(db: Tx, scope: Scope) {
  return db.$queryRaw<Array<{ id: number; name: string; parent_id: number | null }>>`
    WITH RECURSIVE tree AS (
      SELECT c.id, c.name, c.parent_id, ARRAY[c.position, c.id] AS path
        FROM categories c WHERE c.parent_id IS NULL AND c.deleted_at IS NULL
      UNION ALL
      SELECT c.id, c.name, c.parent_id, tree.path || ARRAY[c.position, c.id]
        FROM categories c JOIN tree ON c.parent_id = tree.id WHERE c.deleted_at IS NULL
    )
    SELECT id, name, parent_id FROM tree WHERE id IN (${visibleCategoryIds(scope)}) ORDER BY path`;
}

export function fieldsOfCategories(db: Tx, categoryIds: number[]) {
  return db.metadataField.findMany({
    where: { deletedAt: null, categories: { some: { categoryId: { in: categoryIds } } } },
    orderBy: [{ position: 'asc' }, { name: 'asc' }],
    select: {
      id: true,
      name: true,
      type: true,
      valueList: {
        select: {
          items: {
            where: { archivedAt: null },
            orderBy: { position: 'asc' },
            select: { key: true, label: true },
          },
        },
      },
    },
  });
}

export function ownersOfVisibleFiles(db: Tx, scope: Scope) {
  return db.$queryRaw<Array<{ id: number; username: string; first_name: string; last_name: string }>>`
    SELECT u.id, u.username, u.first_name, u.last_name FROM users u
     WHERE u.id IN (SELECT DISTINCT f.owner_id FROM files f WHERE ${LIVE} AND ${fileVisible(scope)})
     ORDER BY u.first_name, u.last_name, u.username`;
}

export function stepsOfCategories(db: Tx, categoryIds: number[]) {
  return db.workflowStep.findMany({
    where: { workflow: { deletedAt: null, categories: { some: { id: { in: categoryIds } } } } },
    orderBy: [{ workflowId: 'asc' }, { position: 'asc' }],
    select: { id: true, name: true, workflow: { select: { id: true, name: true } } },
  });
}

/** The live fields of these ids, with their type and value list (for checking filters). */
export function fieldsByIds(db: Tx, ids: number[]) {
  return db.metadataField.findMany({
    where: { id: { in: ids }, deletedAt: null },
    select: { id: true, name: true, type: true, valueListId: true },
  });
}

/** The ids of a value list's items with these keys. */
export async function itemIdsByKeys(db: Tx, valueListId: number, keys: number[]) {
  const rows = await db.valueListItem.findMany({
    where: { valueListId, key: { in: keys } },
    select: { id: true },
  });
  return rows.map((r) => r.id);
}

/** The items of a value list whose label is this text (any letter case). */
export async function itemIdsByLabel(db: Tx, valueListId: number, label: string) {
  const rows = await db.valueListItem.findMany({
    where: { valueListId, label: { equals: label, mode: 'insensitive' } },
    select: { id: true },
  });
  return rows.map((r) => r.id);
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
