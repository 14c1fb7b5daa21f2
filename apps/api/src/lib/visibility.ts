import { canAccess, type ObjectRight } from '@quire/contract';
import { Prisma } from '@quire/db';
import type { Deps, Tx } from './deps.js';
import type { ObjectVerdict } from './object-guards.js';
import type { AuthContext } from './session.js';
import { queryRows } from './sql.js';

// Who may see and do what with categories and files, in SQL (docs/data-model.md, "Who may
// see what"). Every list, tree, count, search and object guard goes through here, so nothing
// is filtered after a query.
//
// - A File Control writer signed in as admin (File Control Admin, Company Admin) has every
//   right on every live category and file.
// - A File Control reader signed in as admin (the Auditor) views and downloads everything.
// - Everyone else has what is granted: category rights from quire_category_rights(user)
//   (grants to them, their groups and category groups, inherited down the tree; cached per
//   person and invalidated by the granting transaction, decision 020), and
//   quire_file_rights(user) for files with grants of their own; the owner of a file always
//   views, downloads, edits and deletes it (so does, while it is unindexed, each member of the
//   group intake left it for: files.unindexed_group_id). A file's own grants (shares, per-file
//   permissions) add to its category's unless the file is restricted (has_own_permissions),
//   when only they hold.
// - An assignee of the step a running workflow holds a file in (a task of that step since the
//   file entered it, not cancelled) views the file (its page, history and comments), whatever
//   their grants: they act on that step. Once the file leaves the step, they see it no more.

export type Scope = { kind: 'all'; write: boolean; userId: number } | { kind: 'grants'; userId: number };

export function scopeOf(auth: Pick<AuthContext, 'role' | 'accessType' | 'userId'>): Scope {
  if (auth.role === 'admin' && canAccess(auth.accessType, 'fileControl', 'write'))
    return { kind: 'all', write: true, userId: auth.userId };
  if (auth.role === 'admin' && canAccess(auth.accessType, 'fileControl', 'read'))
    return { kind: 'all', write: false, userId: auth.userId };
  return { kind: 'grants', userId: auth.userId };
}

export type CategoryRight = 'view' | 'upload' | 'edit' | 'delete' | 'share' | 'manage';
export type FileRight = 'view' | 'download' | 'edit' | 'delete' | 'share';

const CATEGORY_COLUMN: Record<CategoryRight, string> = {
  view: 'can_view',
  upload: 'can_upload',
  edit: 'can_edit',
  delete: 'can_delete',
  share: 'can_share',
  manage: 'can_manage',
};

/** The ids of the live categories the scope may view, as a subquery. */
export function visibleCategoryIds(scope: Scope): Prisma.Sql {
  if (scope.kind === 'all') return Prisma.sql`SELECT id FROM categories WHERE deleted_at IS NULL`;
  return Prisma.sql`SELECT category_id FROM quire_category_rights(${scope.userId}::int)`;
}

/**
 * The live categories the scope may view with the rights it holds there, as a subquery of
 * rows `(category_id, can_view, can_upload, can_edit, can_delete, can_share, can_manage)`.
 */
export function categoryRightsTable(scope: Scope): Prisma.Sql {
  if (scope.kind === 'all') {
    const w = scope.write ? Prisma.sql`true` : Prisma.sql`false`;
    return Prisma.sql`SELECT id AS category_id, true AS can_view, ${w} AS can_upload, ${w} AS can_edit,
      ${w} AS can_delete, ${w} AS can_share, ${w} AS can_manage FROM categories WHERE deleted_at IS NULL`;
  }
  return Prisma.sql`SELECT category_id, can_view, can_upload, can_edit, can_delete, can_share, can_manage
    FROM quire_category_rights(${scope.userId}::int)`;
}

/** Whether the scope reads every category (File Control admins and the Auditor signed in as admin). */
export function readsEverything(scope: Scope): boolean {
  return scope.kind === 'all';
}

/** The files waiting in a step of a running workflow that `userId` is assigned to, as a subquery. */
function assignedFileIds(userId: number): Prisma.Sql {
  return Prisma.sql`SELECT wi.file_id FROM workflow_tasks wt
      JOIN workflow_instances wi ON wi.id = wt.instance_id
     WHERE wt.user_id = ${userId}::int AND wt.status <> 'cancelled' AND wi.status = 'running'
       AND wt.step_id = wi.current_step_id AND wt.created_at >= wi.step_entered_at`;
}

/**
 * A condition on a `files` row (alias `f` unless given) that holds when the scope may view
 * it. The caller adds `deleted_at` and `index_status` conditions for its list.
 *
 * A file's own grants (file_permissions: shares, per-file permissions) add to its category's;
 * a file with `has_own_permissions` is restricted: only its own grants reach it.
 */
export function fileVisible(scope: Scope, alias = 'f'): Prisma.Sql {
  if (scope.kind === 'all') return Prisma.sql`true`;
  return Prisma.sql`(${Prisma.join(fileVisibleRoutes(scope, alias), ' OR ')})`;
}

/**
 * fileVisible as its separate routes (one condition each: the file is the caller's, in a
 * category they may view, granted to them, waiting on their step): a file is visible when
 * one holds. Each route can be found by an index of its own, where their OR makes PostgreSQL
 * read every file; a list can take the union of one query per route (search.repository).
 * The 'all' scope has one route, `true`.
 */
export function fileVisibleRoutes(
  scope: Scope,
  alias = 'f',
  options: { apart?: boolean } = {},
): Prisma.Sql[] {
  if (scope.kind === 'all') return [Prisma.sql`true`];
  const f = Prisma.raw(alias);
  // Apart (one query per route), each set of ids is read once into an array: PostgreSQL then
  // takes it as a few values to look up by index, where `IN (subquery)` made it expect
  // thousands of categories and read every file. Within one OR a hashed subquery is cheaper.
  const among = (column: Prisma.Sql, ids: Prisma.Sql) =>
    options.apart ? Prisma.sql`${column} = ANY(ARRAY(${ids}))` : Prisma.sql`${column} IN (${ids})`;
  return [
    Prisma.sql`${f}.owner_id = ${scope.userId}::int`,
    Prisma.sql`(NOT ${f}.has_own_permissions AND ${among(Prisma.sql`${f}.category_id`, Prisma.sql`SELECT category_id FROM quire_category_rights(${scope.userId}::int)`)})`,
    among(Prisma.sql`${f}.id`, Prisma.sql`SELECT file_id FROM quire_file_rights(${scope.userId}::int)`),
    among(Prisma.sql`${f}.id`, assignedFileIds(scope.userId)),
  ];
}

/**
 * fileVisible for the files of one category (`alias.category_id = categoryId` is the caller's
 * to add): whether the scope views that category is one question, asked once for the query
 * (an uncorrelated subquery), and the grant and task id sets are read once into arrays. The
 * list is then read by the category's index, where fileVisible's OR of subqueries made
 * PostgreSQL weigh every category the person may see for every row.
 */
export function fileVisibleInCategory(scope: Scope, categoryId: number, alias = 'f'): Prisma.Sql {
  if (scope.kind === 'all') return Prisma.sql`true`;
  const [own, , granted, assigned] = fileVisibleRoutes(scope, alias, { apart: true });
  return Prisma.sql`(${own}
    OR (NOT ${Prisma.raw(alias)}.has_own_permissions AND EXISTS (
          SELECT 1 FROM quire_category_rights(${scope.userId}::int) r WHERE r.category_id = ${categoryId}::int))
    OR ${granted} OR ${assigned})`;
}

/**
 * A condition on a `files` row (alias `f` unless given): the file was left by intake for a group
 * `userId` is a member of (files.unindexed_group_id). Each member may index or drop such a file,
 * while it is unindexed, as its owner may.
 */
export function inUnindexedGroup(userId: number, alias = 'f'): Prisma.Sql {
  return Prisma.sql`${Prisma.raw(alias)}.unindexed_group_id IN (
    SELECT gm.group_id FROM group_members gm WHERE gm.user_id = ${userId}::int)`;
}

const NO_RIGHTS: Record<FileRight, boolean> = {
  view: false,
  download: false,
  edit: false,
  delete: false,
  share: false,
};

/**
 * What the scope may do with each of files `ids` it may see (live files, or those in the
 * trash with `trashed`); a file it may not see is absent from the map.
 */
export async function fileRights(
  tx: Tx,
  scope: Scope,
  ids: number[],
  options: { trashed?: boolean } = {},
): Promise<Map<number, Record<FileRight, boolean>>> {
  const state = options.trashed ? Prisma.sql`f.deleted_at IS NOT NULL` : Prisma.sql`f.deleted_at IS NULL`;
  if (scope.kind === 'all') {
    const rows = await tx.$queryRaw<Array<{ id: number }>>`
      SELECT f.id FROM files f WHERE f.id = ANY(${ids}::int[]) AND ${state}`;
    const w = scope.write;
    return new Map(rows.map((r) => [r.id, { view: true, download: true, edit: w, delete: w, share: w }]));
  }
  const u = scope.userId;
  const rows = await tx.$queryRaw<
    Array<{
      id: number;
      owner: boolean;
      can_view: boolean;
      can_download: boolean;
      can_edit: boolean;
      can_delete: boolean;
      can_share: boolean;
      owner_share: boolean;
    }>
  >`
    SELECT f.id, (f.owner_id = ${u}::int OR (f.index_status = 'unindexed' AND ${inUnindexedGroup(u)})) AS owner,
           coalesce(fr.can_view, false) OR (category_grants.inherited AND coalesce(cr.can_view, false))
             OR f.id IN (${assignedFileIds(u)}) AS can_view,
           coalesce(fr.can_download, false)
             OR (category_grants.inherited AND coalesce(cr.can_view, false)) AS can_download,
           coalesce(fr.can_edit, false)
             OR (category_grants.inherited AND coalesce(cr.can_edit OR cr.can_manage, false)) AS can_edit,
           coalesce(fr.can_delete, false)
             OR (category_grants.inherited AND coalesce(cr.can_delete OR cr.can_manage, false)) AS can_delete,
           coalesce(fr.can_share, false)
             OR (category_grants.inherited AND coalesce(cr.can_share OR cr.can_manage, false)) AS can_share,
           coalesce(fr.can_share, false) OR coalesce(cr.can_share OR cr.can_manage, false) AS owner_share
      FROM files f
      -- A restricted file (has_own_permissions) takes none of its category's grants.
      CROSS JOIN LATERAL (SELECT NOT f.has_own_permissions AS inherited) category_grants
      LEFT JOIN quire_file_rights(${u}::int) fr ON fr.file_id = f.id
      LEFT JOIN quire_category_rights(${u}::int) cr ON cr.category_id = f.category_id
     WHERE f.id = ANY(${ids}::int[]) AND ${state}`;
  const out = new Map<number, Record<FileRight, boolean>>();
  for (const r of rows) {
    // The owner always views, downloads, edits and deletes their file; sharing needs a grant
    // (of the file, or of its category even when the file is restricted). An unindexed file
    // left for a group (intake) is each member's as it is its owner's, until it is indexed.
    const rights = r.owner
      ? { view: true, download: true, edit: true, delete: true, share: r.owner_share }
      : {
          ...NO_RIGHTS,
          view: r.can_view,
          download: r.can_download,
          edit: r.can_edit,
          delete: r.can_delete,
          share: r.can_share,
        };
    if (rights.view || rights.download || rights.edit || rights.delete || rights.share)
      out.set(r.id, { ...rights, view: true });
  }
  return out;
}

/** Runs one named statement and answers its rows: in a transaction, or on the pool. */
type RunSql = <T>(sql: Prisma.Sql, name: string) => Promise<T[]>;

/** The verdict for `right` on categories `ids` (live ones only: a deleted category is hidden). */
export function categoryVerdict(
  tx: Tx,
  scope: Scope,
  ids: number[],
  right: CategoryRight,
): Promise<ObjectVerdict> {
  return categoryVerdictBy(<T>(sql: Prisma.Sql) => tx.$queryRaw<T[]>(sql), scope, ids, right);
}

async function categoryVerdictBy(
  run: RunSql,
  scope: Scope,
  ids: number[],
  right: CategoryRight,
): Promise<ObjectVerdict> {
  if (scope.kind === 'all') {
    const live = await run<{ n: number }>(
      Prisma.sql`SELECT count(*)::int AS n FROM categories WHERE id = ANY(${ids}::int[]) AND deleted_at IS NULL`,
      'quire_live_categories',
    );
    if (Number(live[0]?.n ?? 0) !== ids.length) return 'hidden';
    return right === 'view' || scope.write ? 'allowed' : 'forbidden';
  }
  const rows = await run<{ category_id: number; allowed: boolean }>(
    Prisma.sql`
      SELECT r.category_id, r.${Prisma.raw(CATEGORY_COLUMN[right])} AS allowed
        FROM quire_category_rights(${scope.userId}::int) r
       WHERE r.category_id = ANY(${ids}::int[])`,
    `quire_category_verdict_${right}`,
  );
  if (rows.length !== ids.length) return 'hidden';
  return rows.every((r) => r.allowed) ? 'allowed' : 'forbidden';
}

/**
 * The verdict for `right` on files `ids`. `trashed` picks the files in the trash instead of
 * the live ones (restore, purge, trash view).
 */
export async function fileVerdict(
  tx: Tx,
  scope: Scope,
  ids: number[],
  right: FileRight,
  options: { trashed?: boolean } = {},
): Promise<ObjectVerdict> {
  const rights = await fileRights(tx, scope, ids, options);
  if (ids.some((id) => !rights.has(id))) return 'hidden';
  return ids.every((id) => rights.get(id)?.[right]) ? 'allowed' : 'forbidden';
}

/** Narrows the contract's object right to a category right (the contract names both kinds' rights). */
export function asCategoryRight(right: ObjectRight): CategoryRight {
  if (right === 'download') return 'view';
  return right;
}

/** Narrows the contract's object right to a file right. */
export function asFileRight(right: ObjectRight): FileRight {
  if (right === 'upload' || right === 'manage') return 'edit';
  return right;
}

/**
 * The object guards of categories and files (`object: { category: 'manage' }`,
 * `{ file: 'edit', from: 'body.file_id' }`), answered by the functions above. Registered once
 * by buildApp; files in the trash are not reached by the `file` guard (the trash calls are
 * File Control calls).
 */
export function registerDocumentGuards(deps: Pick<Deps, 'db' | 'objectGuards'>) {
  // Outside a transaction: prepared statements on the pool (every upload and category call
  // asks this once; Prisma's query handling cost more than the query).
  const onPool: RunSql = (sql, name) => queryRows(deps.db, sql, name);
  deps.objectGuards.register('category', (auth, ids, right) =>
    categoryVerdictBy(onPool, scopeOf(auth), ids, asCategoryRight(right)),
  );
  deps.objectGuards.register('file', (auth, ids, right) =>
    fileVerdict(deps.db, scopeOf(auth), ids, asFileRight(right)),
  );
}
