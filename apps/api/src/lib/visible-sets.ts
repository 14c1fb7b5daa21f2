import { type Db, Prisma } from '@quire/db';
import { queryRows } from './sql.js';
import { fileVisibleRoutes, type Scope } from './visibility.js';

// What a caller may see, read once for a request (issue 29): the ids of the categories they
// view (quire_category_rights) and of the files granted to them or waiting on their workflow
// step, as two arrays. A list or a search then filters by parameters, `category_id =
// ANY($ids)`, which the category index serves, instead of running the recursive rights
// function inside each of its statements (the rows and the count, each route of a union).
// The rules are lib/visibility.ts's; this only holds their answer for one request.
//
// A list may also keep a person's sets between calls (byKeptSets, decision 022): the statement
// that reads them reads their epoch too (quire_seen_sets_epoch, migration 0022, raised at
// commit by every change the sets derive from), and each statement that then takes them
// answers the epoch of its own snapshot beside its rows. Where the two differ the sets are read
// again and the statement run again, so kept sets never decide what a caller sees.

/** The sets of a caller: everything (File Control admins, the Auditor signed in as admin), or what is granted. */
export type SeenSets =
  | { kind: 'all'; userId: number }
  | { kind: 'grants'; userId: number; categoryIds: number[]; fileIds: number[] };

/** The one statement that reads a caller's sets: one row `(category_ids, file_ids)`. */
export function seenSetsSql(scope: Extract<Scope, { kind: 'grants' }>): Prisma.Sql {
  const [, , granted, assigned] = fileVisibleRoutes(scope, 'f', { apart: true });
  // The categories from quire_viewed_category_ids (migration 0021): the person's row of the
  // rights cache while it is current, already the ascending array wanted, without the rows of
  // quire_category_rights to sort and gather again (about half of this statement's time).
  // The epoch in the statement's snapshot, which the VOLATILE function's reads follow: the
  // sets are never older than the epoch they carry.
  return Prisma.sql`SELECT quire_viewed_category_ids(${scope.userId}::int) AS category_ids,
    ARRAY(SELECT f.id FROM files f WHERE ${granted} OR ${assigned} ORDER BY 1) AS file_ids,
    ${SEEN_EPOCH} AS epoch`;
}

/** The epoch of the sets in the statement's snapshot (one text), read once for the statement. */
const SEEN_EPOCH = Prisma.sql`(SELECT quire_seen_sets_epoch())`;

/**
 * The column a statement that takes `seen` adds to its select list (`, … AS seen_epoch`), so
 * that byKeptSets can check kept sets against its snapshot; none for the 'all' sets.
 */
export function seenEpochColumn(seen: SeenSets): Prisma.Sql {
  return seen.kind === 'grants' ? Prisma.sql`, ${SEEN_EPOCH} AS seen_epoch` : Prisma.empty;
}

/** A row of seenSetsSql (or of a statement that selects its columns). */
export interface SeenRow {
  category_ids: number[];
  file_ids: number[];
  epoch: string;
}

/**
 * How many ids (categories, files, a tree's categories) a server keeps in all, per database:
 * about 8 MB. The oldest kept row is let go first; a row larger than this is not kept.
 */
export const KEPT_IDS = 1_000_000;

/** The rows kept for one database, oldest first, and how many ids they hold. */
interface Kept {
  rows: Map<string, SeenRow>;
  ids: number;
}
const kept = new WeakMap<Db, Kept>();

const idsIn = (row: SeenRow & { tree?: number[] }) =>
  row.category_ids.length + row.file_ids.length + (row.tree?.length ?? 0);

/** What a statement that takes kept sets answers: among the rest, the epochs its snapshots saw. */
export interface EpochsSeen {
  epochs: string[];
}

/** The epochs of a page's rows and count statements (SEEN_EPOCH as `seen_epoch`; none in the 'all' scope). */
export function epochsOf(...rows: Array<{ seen_epoch?: string } | undefined>): string[] {
  return rows.map((r) => r?.seen_epoch).filter((e): e is string => e !== undefined);
}

/** Keeps `row` under `key` (none: lets the key go), the oldest rows let go to stay within `budget` ids. */
function keep(db: Db, key: string, row: SeenRow | undefined, budget: number) {
  const k = kept.get(db) ?? { rows: new Map<string, SeenRow>(), ids: 0 };
  kept.set(db, k);
  const before = k.rows.get(key);
  if (before) {
    k.rows.delete(key);
    k.ids -= idsIn(before);
  }
  if (!row || idsIn(row) > budget) return;
  k.rows.set(key, row);
  k.ids += idsIn(row);
  for (const [oldest, r] of k.rows) {
    if (k.ids <= budget) break;
    k.rows.delete(oldest);
    k.ids -= idsIn(r);
  }
}

/**
 * Runs `page` with the sets row kept under `key` for the database behind `db` from an earlier
 * call, when there is one and every statement of the page saw its epoch; else reads the row
 * now (`read`), keeps it, and runs `page` with it. Kept sets never decide what a caller sees:
 * a grant, a membership, a task or a tree changed since they were read shows as another epoch.
 */
export async function byKeptSets<R extends SeenRow, T extends EpochsSeen>(
  db: Db,
  key: string,
  read: () => Promise<R | undefined>,
  page: (row: R | undefined) => Promise<T>,
  budget = KEPT_IDS,
): Promise<T> {
  const held = kept.get(db)?.rows.get(key) as R | undefined;
  if (held) {
    const answer = await page(held);
    if (answer.epochs.every((e) => e === held.epoch)) return answer;
  }
  const row = await read();
  keep(db, key, row, budget);
  return page(row);
}

/** The row of seenSetsSql (or of a statement that selects its columns) as sets. */
export function seenOfRow(
  scope: Extract<Scope, { kind: 'grants' }>,
  row: { category_ids: number[]; file_ids: number[] } | undefined,
): SeenSets {
  return {
    kind: 'grants',
    userId: scope.userId,
    categoryIds: row?.category_ids ?? [],
    fileIds: row?.file_ids ?? [],
  };
}

/**
 * The key of a person's kept sets row: theirs alone (seenSetsSql's row), or with a category
 * filter's tree read beside it (the search's row).
 */
export const keptKey = (userId: number, treeOf?: number) =>
  treeOf === undefined ? `${userId}` : `${userId}:${treeOf}`;

const readSeenRow = async (db: Db, scope: Extract<Scope, { kind: 'grants' }>) =>
  (await queryRows<SeenRow>(db, seenSetsSql(scope), 'quire_seen_sets'))[0];

/** The sets of `scope`, read on the pool in one named statement (none for the 'all' scope). */
export async function readSeenSets(db: Db, scope: Scope): Promise<SeenSets> {
  if (scope.kind === 'all') return { kind: 'all', userId: scope.userId };
  return seenOfRow(scope, await readSeenRow(db, scope));
}

/** `page` by the sets of `scope` kept between calls (byKeptSets; the 'all' scope has none to keep). */
export function withKeptSeenSets<T extends EpochsSeen>(
  db: Db,
  scope: Scope,
  page: (seen: SeenSets) => Promise<T>,
): Promise<T> {
  if (scope.kind === 'all') return page({ kind: 'all', userId: scope.userId });
  return byKeptSets(
    db,
    keptKey(scope.userId),
    () => readSeenRow(db, scope),
    (row) => page(seenOfRow(scope, row)),
  );
}

/**
 * A condition on a `files` row of category `categoryId` (the caller adds `category_id =
 * categoryId`) that holds when the sets' caller may see it: seenCondition with the category
 * fixed. Where the caller views the category it is `NOT has_own_permissions OR theirs OR
 * granted`, which nearly every row meets, so a page is read in order from the category's
 * index and stops at its size (an OR over `category_id = ANY(…)` made PostgreSQL expect one
 * row, join every file of the category and sort them).
 */
export function seenInCategory(seen: SeenSets, categoryId: number, alias = 'f'): Prisma.Sql {
  if (seen.kind === 'all') return Prisma.sql`true`;
  const viewed = seen.categoryIds.includes(categoryId);
  return anyWay({
    ...ways(seen, alias),
    inCategory: viewed ? Prisma.sql`NOT ${Prisma.raw(alias)}.has_own_permissions` : null,
  });
}

/** The three ways of seeing a file by the sets, each a condition on `alias` (null: an empty set). */
function ways(seen: Extract<SeenSets, { kind: 'grants' }>, alias: string) {
  const f = Prisma.raw(alias);
  return {
    own: Prisma.sql`${f}.owner_id = ${seen.userId}::int`,
    // Served by files_category_shared_idx (migration 0019) from the index alone.
    inCategory: seen.categoryIds.length
      ? Prisma.sql`(NOT ${f}.has_own_permissions AND ${f}.category_id = ANY(${seen.categoryIds}::int[]))`
      : null,
    granted: seen.fileIds.length ? Prisma.sql`${f}.id = ANY(${seen.fileIds}::int[])` : null,
  };
}

/** One of seenRoutes' conditions; `byCategory`: the route of the categories seen (its ids the caller's, in `categoryIds`). */
export interface SeenRoute {
  sql: Prisma.Sql;
  byCategory: boolean;
}

/**
 * The ways a `files` row (alias `f` unless given) is seen, as disjoint conditions (a file meets
 * exactly one, so a union of one query per way needs no deduplication, and each can be found by
 * an index of its own): in a category the caller views (unless restricted), else theirs, else
 * granted to them or waiting on their step. A way with an empty set is left out. The 'all' sets
 * have one way, `true`.
 */
export function seenWays(seen: SeenSets, alias = 'f'): SeenRoute[] {
  const route = (sql: Prisma.Sql, byCategory = false) => ({ sql, byCategory });
  if (seen.kind === 'all') return [route(Prisma.sql`true`)];
  const { own, inCategory, granted } = ways(seen, alias);
  if (!inCategory)
    return granted ? [route(own), route(Prisma.sql`(${granted} AND NOT ${own})`)] : [route(own)];
  // A file without a category is in none: coalesce, as `NULL = ANY(…)` is null.
  const notInCategory = Prisma.sql`NOT coalesce(${inCategory}, false)`;
  return [
    route(inCategory, true),
    route(Prisma.sql`(${own} AND ${notInCategory})`),
    ...(granted ? [route(Prisma.sql`(${granted} AND NOT ${own} AND ${notInCategory})`)] : []),
  ];
}

/** seenWays' conditions. */
export function seenRoutes(seen: SeenSets, alias = 'f'): Prisma.Sql[] {
  return seenWays(seen, alias).map((r) => r.sql);
}

/** A condition on a `files` row that holds when the sets' caller may see it. */
export function seenCondition(seen: SeenSets, alias = 'f'): Prisma.Sql {
  if (seen.kind === 'all') return Prisma.sql`true`;
  return anyWay(ways(seen, alias));
}

/** The ways' OR, leaving out those with an empty set. */
function anyWay({ own, inCategory, granted }: ReturnType<typeof ways>): Prisma.Sql {
  return Prisma.sql`(${Prisma.join([own, ...(inCategory ? [inCategory] : []), ...(granted ? [granted] : [])], ' OR ')})`;
}
