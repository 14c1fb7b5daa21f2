import type { Db } from '@quire/db';
import type { Deps, Tx } from '../../lib/deps.js';
import { nextCursor, parseCursor } from '../../lib/file-cursor.js';
import { type PageQuery, pageMeta } from '../../lib/paging.js';
import type { AuthContext } from '../../lib/session.js';
import { type Scope, scopeOf } from '../../lib/visibility.js';
import { readSeenSets, withKeptSeenSets } from '../../lib/visible-sets.js';
import { toSummary } from './file.service.js';
import * as listsRepo from './file-lists.repository.js';
import * as valuesRepo from './file-values.repository.js';

// The lists of files: a person's unindexed files, check-outs and favourites, and the rows of a
// category's list (which the category area shapes into its page and its export).

export type CategoryFilter = listsRepo.CategoryFilter;

export async function unindexedFiles(deps: Deps, auth: AuthContext, q: PageQuery & { folder_id?: number }) {
  const { rows, total } = await listsRepo.unindexedPage(deps.db, auth.userId, q.folder_id, q);
  return { ...pageMeta(q, total), items: rows.map(toSummary) };
}

export async function checkedOutFiles(deps: Deps, auth: AuthContext, q: PageQuery) {
  const { rows, total } = await listsRepo.checkedOutPage(deps.db, scopeOf(auth), auth.userId, q);
  return { ...pageMeta(q, total), items: rows.map(toSummary) };
}

export async function favouriteFiles(deps: Deps, auth: AuthContext, q: PageQuery) {
  const { rows, total } = await listsRepo.favouritesPage(deps.db, scopeOf(auth), auth.userId, q);
  return { ...pageMeta(q, total), items: rows.map(toSummary) };
}

/** Summaries with their stored values of `fieldIds`, for a page or a batch of rows. */
async function withValues(db: Tx, rows: listsRepo.SummaryRow[], fieldIds: number[]) {
  const values = await valuesRepo.storedValues(
    db,
    rows.map((r) => r.id),
    fieldIds,
  );
  return rows.map((r) => ({ summary: toSummary(r), values: values.get(r.id) ?? [] }));
}

/**
 * One page of a category's live, indexed files that `scope` may see, newest first: the page
 * and its count by the caller's sets, kept between calls and checked by both statements
 * (lib/visible-sets.ts withKeptSeenSets).
 */
export async function categoryFilesPage(
  db: Db,
  scope: Scope,
  categoryId: number,
  filter: CategoryFilter,
  q: PageQuery & { cursor?: string },
  fieldIds: number[] | Promise<number[]>,
) {
  const before = q.cursor ? parseCursor(q.cursor) : undefined;
  const { rows, total } = await withKeptSeenSets(db, scope, (seen) =>
    listsRepo.categoryPage(db, seen, categoryId, filter, { ...q, before }),
  );
  return {
    total,
    items: await withValues(db, rows, await fieldIds),
    next_cursor: nextCursor(rows, q.quantity),
  };
}

/** The same list as `categoryFilesPage`, whole, in batches (for exports). */
export async function* categoryFileBatches(
  db: Db,
  scope: Scope,
  categoryId: number,
  filter: CategoryFilter,
  fieldIds: number[],
) {
  const seen = await readSeenSets(db, scope);
  for await (const rows of listsRepo.categoryRows(db, seen, categoryId, filter)) {
    yield await withValues(db, rows, fieldIds);
  }
}
