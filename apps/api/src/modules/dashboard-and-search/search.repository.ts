import { type Db, Prisma } from '@quire/db';
import { utc } from '../../lib/jobs/queue.js';
import { queryRows } from '../../lib/sql.js';
import type { Scope } from '../../lib/visibility.js';
import {
  byKeptSets,
  epochsOf,
  keptKey,
  type SeenRow,
  type SeenSets,
  seenCondition,
  seenEpochColumn,
  seenOfRow,
  seenSetsSql,
  seenWays,
} from '../../lib/visible-sets.js';
import {
  COUNT_CAP,
  LIVE,
  page,
  SUMMARY_COLUMNS,
  SUMMARY_JOINS,
  type SummaryRow,
  type Window,
} from './dashboard-and-search.repository.js';
import {
  categoryTreeSql,
  type FileFilter,
  filterConditions,
  type SearchTerms,
  takesTree,
} from './search-conditions.repository.js';

// The queries of the search: the ranked page of files found, its count and their snippets
// (the words and the filters' conditions as SQL are search-conditions.repository.ts, what the
// filter panel offers search-filters.repository.ts). Each filters in the SQL with fileVisible
// (lib/visibility.ts), the page and its count with the caller's sets read once for the
// request (lib/visible-sets.ts). The SQL is built here (and exported) so that `pnpm bench:search`
// runs exactly these statements bare through `pg`.

/**
 * The statement that reads the caller's sets (lib/visible-sets.ts) and, when the filter takes a
 * category with its sub-categories, the ids of that tree (one round trip: the page's
 * statements then take both as parameters, with no recursive query in each route to plan),
 * with the epoch they hold at; null for the 'all' scope, whose page needs no sets.
 */
export function seenSql(scope: Scope, filter: FileFilter): { sql: Prisma.Sql; name: string } | null {
  if (scope.kind === 'all') return null;
  if (!takesTree(filter)) return { sql: seenSetsSql(scope), name: 'quire_seen_sets' };
  return {
    sql: Prisma.sql`SELECT s.category_ids, s.file_ids, s.epoch, ARRAY(${categoryTreeSql(filter.categoryId)}) AS tree
      FROM (${seenSetsSql(scope)}) s`,
    name: 'quire_seen_sets_tree',
  };
}

type SeenTreeRow = SeenRow & { tree?: number[] };

/** seenSql's row as the sets and the filter with its tree. */
export function seenOf(scope: Scope, filter: FileFilter, row: SeenTreeRow | undefined) {
  if (scope.kind === 'all') return { seen: { kind: 'all', userId: scope.userId } as SeenSets, filter };
  return {
    seen: seenOfRow(scope, row),
    filter: row?.tree ? { ...filter, categoryTree: row.tree } : filter,
  };
}

export type FoundRow = SummaryRow & { rank: number; seen_epoch?: string };

/**
 * How many matches are ranked. Ranking reads each match's whole search vector (its content
 * too); a broad word that matches a third of 100,000 files took seconds. Of more matches than
 * this, the newest RANK_WINDOW are ranked and come first, the rest follow newest first: one
 * order for every page, and a broad word costs about as much as a rare one.
 */
export const RANK_WINDOW = 1000;

/**
 * How many rows the disjoint `parts` answer together, counting at most COUNT_CAP + 1: each
 * part counted apart, up to the cap, in the order its index gives (no sort, no union).
 */
const cappedCount = (parts: Prisma.Sql[]) =>
  Prisma.sql`least(${Prisma.join(
    parts.map((part) => Prisma.sql`(SELECT count(*) FROM (${part} LIMIT ${COUNT_CAP + 1}::int) x)`),
    ' + ',
  )}, ${COUNT_CAP + 1}::int)::int`;

/** A page: by offset, or (keyset, a list without search words) the files older than `before`. */
export type ListWindow = Window & { before?: { at: Date; id: number } };

/**
 * One page of matching files and how many match (at most COUNT_CAP + 1). With search terms the
 * order is by rank: full-text rank of the weighted vector (name A, metadata and tags B,
 * comments C, content D), plus a bonus when every word is part of the name (trigram index,
 * partial words), among the newest RANK_WINDOW matches; without, newest first.
 */
export function findFilesSql(
  seenSets: SeenSets,
  terms: SearchTerms | null,
  filter: FileFilter,
  w: ListWindow,
) {
  // Of the categories seen, those in the filter's tree (when read): one array for the index.
  const tree = filter.categoryTree ? new Set(filter.categoryTree) : null;
  const seen: SeenSets =
    tree && seenSets.kind === 'grants'
      ? { ...seenSets, categoryIds: seenSets.categoryIds.filter((id) => tree.has(id)) }
      : seenSets;
  const where = Prisma.join([LIVE, seenCondition(seen), ...filterConditions(filter)], ' AND ');
  // Taking a person's sets, each statement answers the epoch of its snapshot (findFilesFor).
  const epoch = seenEpochColumn(seen);
  if (!terms) {
    // The files of each way the caller may see a file (seenRoutes, disjoint), each found by
    // its own index, newest first and at most as many as the page (or the count) needs. One OR
    // over the routes read every file.
    const routes = seenWays(seen);
    // The category route's ids are within the filter's tree already (narrowed above): the
    // tree's own `category_id = ANY(…)` beside them made PostgreSQL square its estimate (40
    // rows for 2,000) and read the files' rows by the unique index, not the category index alone.
    const narrowed = filterConditions(
      filter.categoryTree ? { ...filter, categoryTree: undefined, categoryId: undefined } : filter,
    );
    const conditions = (route: (typeof routes)[number]) =>
      route.byCategory && tree ? narrowed : filterConditions(filter);
    // After a cursor, each route's index is entered at that place (the count is of them all).
    const older = w.before
      ? [
          Prisma.sql`(f.created_at, f.id) < ((${utc(w.before.at)}::timestamptz AT TIME ZONE 'UTC'), ${w.before.id}::int)`,
        ]
      : [];
    const where = (route: (typeof routes)[number], after: Prisma.Sql[] = []) =>
      Prisma.join([LIVE, route.sql, ...conditions(route), ...after], ' AND ');
    const newestIds = Prisma.join(
      routes.map(
        (route) => Prisma.sql`(SELECT f.id, f.created_at FROM files f WHERE ${where(route, older)}
           ORDER BY f.created_at DESC, f.id DESC LIMIT ${w.offset + w.limit}::int)`,
      ),
      ' UNION ALL ',
    );
    return {
      // The page's ids first, then their columns: the joins run for one page, not for every
      // row before the offset.
      rows: Prisma.sql`
        SELECT ${SUMMARY_COLUMNS}, 0::float8 AS rank${epoch} FROM (
          SELECT u.id, u.created_at FROM (${newestIds}) u
           ORDER BY u.created_at DESC, u.id DESC ${page(w)}
        ) p
        JOIN files f ON f.id = p.id ${SUMMARY_JOINS}
        ORDER BY p.created_at DESC, p.id DESC`,
      // The routes counted apart: sorting their files newest first and passing them up through
      // a union took two thirds of a count of 2,000 (1.27 ms against 0.42, EXPLAIN ANALYZE at
      // 100k files).
      count: Prisma.sql`SELECT ${cappedCount(routes.map((route) => Prisma.sql`SELECT 1 FROM files f WHERE ${where(route)}`))} AS n${epoch}`,
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
  return {
    rows: Prisma.sql`
      WITH q AS (SELECT ${query} AS tsq),
      win AS MATERIALIZED (${newest(RANK_WINDOW)})
      SELECT ${SUMMARY_COLUMNS}, m.rank${epoch} FROM (
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
      SELECT ${cappedCount([
        Prisma.sql`SELECT 1 FROM files f WHERE ${byName}`,
        Prisma.sql`SELECT 1 FROM files f, q WHERE ${byText}`,
      ])} AS n${epoch}`,
  };
}

/**
 * Runs findFilesSql's two statements on the pool (node-postgres: Prisma's query handling cost
 * more than a page's query), with the epochs their snapshots answered (none in the 'all' scope).
 */
export async function findFiles(db: Db, sql: { rows: Prisma.Sql; count: Prisma.Sql }) {
  const [rows, count] = await Promise.all([
    queryRows<FoundRow>(db, sql.rows),
    queryRows<{ n: number; seen_epoch?: string }>(db, sql.count),
  ]);
  return { rows, total: count[0]?.n ?? 0, epochs: epochsOf(rows[0], count[0]) };
}

/**
 * One page of the files `scope` may see that match, and how many match (findFilesSql), by the
 * caller's sets (seenSql) kept between calls (lib/visible-sets.ts byKeptSets): read again, and
 * the page with them, when one of its statements saw another epoch than theirs.
 */
export function findFilesFor(
  db: Db,
  scope: Scope,
  terms: SearchTerms | null,
  filter: FileFilter,
  w: ListWindow,
) {
  const statement = seenSql(scope, filter);
  const page = (row: SeenTreeRow | undefined) => {
    const read = seenOf(scope, filter, row);
    return findFiles(db, findFilesSql(read.seen, terms, read.filter, w));
  };
  if (!statement) return page(undefined);
  const key = keptKey(scope.userId, takesTree(filter) ? filter.categoryId : undefined);
  const read = async () => (await queryRows<SeenTreeRow>(db, statement.sql, statement.name))[0];
  return byKeptSets(db, key, read, page);
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

export async function snippets(db: Db, ids: number[], terms: SearchTerms, firstWord: string) {
  const found = new Map<number, { snippet: string; page: number | null }>();
  if (!ids.length) return found;
  const rows = await queryRows<{ id: number; snippet: string | null; page: number | null }>(
    db,
    snippetsSql(ids, terms, firstWord),
  );
  for (const r of rows)
    if (r.snippet?.includes(MARK_START)) found.set(r.id, { snippet: r.snippet, page: r.page });
  return found;
}
