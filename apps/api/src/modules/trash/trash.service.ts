import type { Actor } from '../../lib/audit.js';
import type { Deps, Tx } from '../../lib/deps.js';
import { type PageQuery, pageMeta } from '../../lib/paging.js';
import type { AuthContext } from '../../lib/session.js';
import { categoryVerdict, fileRights, scopeOf } from '../../lib/visibility.js';
import {
  detailOf,
  liveCategoryOf,
  purgeRow,
  summariesOf,
  takeNumbers,
  toPerson,
} from '../file/file.service.js';
import { fileChanged, lockForChange } from '../file/file-change.service.js';
import { assertCanFileInto } from '../file/file-values.service.js';
import { assertNotHeld } from '../retention/legal-hold.guard.js';
import { categoryNotFound, fileNotFound, restoreForbidden, restoreNeedsCategory } from './trash.errors.js';
import * as repo from './trash.repository.js';

// The trash: list, view, restore (to its category, or a chosen one when that is gone),
// purge (the row and its dependants; the content goes with the blob collector).

type LockedFile = Awaited<ReturnType<typeof lockForChange>>[number];

async function deletedInfo(
  deps: Deps,
  rows: Array<{ deleted_by_id: number | null; deleted_at: Date | null; category_live: boolean }>,
) {
  const ids = [...new Set(rows.flatMap((r) => (r.deleted_by_id ? [r.deleted_by_id] : [])))];
  const people = new Map((await repo.people(deps.db, ids)).map((p) => [p.id, toPerson(p)]));
  return (r: (typeof rows)[number]) => ({
    deleted_at: (r.deleted_at ?? new Date(0)).toISOString(),
    deleted_by: r.deleted_by_id ? (people.get(r.deleted_by_id) ?? null) : null,
    folder_live: r.category_live,
  });
}

export async function listTrash(deps: Deps, q: PageQuery & { search?: string }) {
  const { ids, total } = await repo.trashPage(deps.db, q.search || undefined, q);
  const rows = await summariesOf(deps.db, ids);
  const info = await deletedInfo(
    deps,
    rows.map((r) => r.row),
  );
  return { ...pageMeta(q, total), items: rows.map((r) => ({ ...r.summary, ...info(r.row) })) };
}

export async function viewTrashFile(deps: Deps, auth: AuthContext, id: number) {
  const [row] = await summariesOf(deps.db, [id]);
  if (!row?.row.deleted_at) throw fileNotFound();
  const info = await deletedInfo(deps, [row.row]);
  return { ...(await detailOf(deps.db, auth, id, { trashed: true, now: deps.now() })), ...info(row.row) };
}

export async function restoreFile(deps: Deps, actor: Actor, id: number, categoryId?: number) {
  await deps.db.$transaction(async (tx) => {
    const [file] = await lockForChange(tx, [id], { trashed: true });
    if (!file) throw fileNotFound();
    await restoreLocked(tx, actor, file, categoryId);
  });
  const [row] = await summariesOf(deps.db, [id]);
  if (!row) throw fileNotFound();
  return row.summary;
}

/** Puts a trashed file (locked) back in its category, or in `categoryId`; audited. */
async function restoreLocked(
  tx: Tx,
  actor: Actor,
  file: LockedFile,
  categoryId: number | undefined,
  own = false,
) {
  const home = file.category_id ? await liveCategoryOf(tx, file.category_id) : null;
  const target = categoryId ?? home?.id;
  if (!target) throw restoreNeedsCategory();
  const moving = target !== file.category_id;
  const number = moving ? await takeNumbers(tx, target, 1) : file.incremental_value;
  if (moving && number === null) throw categoryNotFound();
  await repo.restore(tx, file.id, { categoryId: target, incrementalValue: number });
  await fileChanged(tx, actor, {
    event: 'restored',
    fileId: file.id,
    categoryId: target,
    action: 'file.restored',
    message: own
      ? `Restored "${file.name}", which they had deleted`
      : `Restored "${file.name}" from the trash`,
    details: { folder_id: target, moved: moving, incremental_value: number, own },
  });
}

export async function purgeFile(deps: Deps, actor: Actor, id: number) {
  await deps.db.$transaction(async (tx) => {
    const [file] = await lockForChange(tx, [id], { trashed: true });
    if (!file) throw fileNotFound();
    // A file in the trash may still be under legal hold: then it is kept.
    await assertNotHeld(tx, [file]);
    await fileChanged(tx, actor, {
      event: 'purged',
      fileId: id,
      categoryId: file.category_id,
      action: 'file.purged',
      message: `Deleted "${file.name}" for good`,
      details: { name: file.name, folder_id: file.category_id, incremental_value: file.incremental_value },
    });
    await purgeRow(tx, id);
  });
}

// "My deleted files": the files the caller deleted, restored while they may still delete them.

export async function listMyDeleted(deps: Deps, auth: AuthContext, q: PageQuery & { search?: string }) {
  const { ids, total } = await repo.trashPage(deps.db, q.search || undefined, q, auth.userId);
  const rows = await summariesOf(deps.db, ids);
  const info = await deletedInfo(
    deps,
    rows.map((r) => r.row),
  );
  return { ...pageMeta(q, total), items: rows.map((r) => ({ ...r.summary, ...info(r.row) })) };
}

/**
 * Restores a file the caller deleted (another's, or one not in the trash: 404) if they may
 * delete it now where it goes back to (403 otherwise): its category, or `categoryId` (upload
 * there; needed when its category is gone: 400).
 */
export async function restoreMyDeleted(
  deps: Deps,
  auth: AuthContext,
  actor: Actor,
  id: number,
  categoryId?: number,
) {
  await deps.db.$transaction(async (tx) => {
    const [file] = await lockForChange(tx, [id], { trashed: true });
    const [row] = await summariesOf(tx, [id]);
    if (!file || row?.row.deleted_by_id !== auth.userId) throw fileNotFound();
    const moving = categoryId !== undefined && categoryId !== file.category_id;
    if (!moving && !row.row.category_live) throw restoreNeedsCategory();
    if (moving) await assertCanFileInto(tx, auth, categoryId);
    const scope = scopeOf(auth);
    const rights = await fileRights(tx, scope, [id], { trashed: true });
    const mayDelete =
      (rights.get(id)?.delete ?? false) ||
      (moving &&
        !file.has_own_permissions &&
        (await categoryVerdict(tx, scope, [categoryId], 'delete')) === 'allowed');
    if (!mayDelete) throw restoreForbidden(file.name);
    await restoreLocked(tx, actor, file, categoryId, true);
  });
  const [row] = await summariesOf(deps.db, [id]);
  if (!row) throw fileNotFound();
  return row.summary;
}
