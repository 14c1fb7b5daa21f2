import type { Actor } from '../../lib/audit.js';
import type { Deps } from '../../lib/deps.js';
import { type PageQuery, pageMeta } from '../../lib/paging.js';
import type { AuthContext } from '../../lib/session.js';
import {
  detailOf,
  fileChanged,
  liveCategoryOf,
  lockForChange,
  purgeRow,
  summariesOf,
  takeNumbers,
  toPerson,
} from '../file/file.service.js';
import { categoryNotFound, fileNotFound, restoreNeedsCategory } from './trash.errors.js';
import * as repo from './trash.repository.js';

// The trash: list, view, restore (to its category, or a chosen one when that is gone),
// purge (the row and its dependants; the content goes with the blob collector).

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

export async function restoreFile(deps: Deps, actor: Actor, id: number, folderId?: number) {
  await deps.db.$transaction(async (tx) => {
    const [file] = await lockForChange(tx, [id], { trashed: true });
    if (!file) throw fileNotFound();
    const home = file.category_id ? await liveCategoryOf(tx, file.category_id) : null;
    const target = folderId ?? home?.id;
    if (!target) throw restoreNeedsCategory();
    const moving = target !== file.category_id;
    const number = moving ? await takeNumbers(tx, target, 1) : file.incremental_value;
    if (moving && number === null) throw categoryNotFound();
    await repo.restore(tx, id, { categoryId: target, incrementalValue: number });
    await fileChanged(tx, actor, {
      event: 'restored',
      fileId: id,
      categoryId: target,
      action: 'file.restored',
      message: `Restored "${file.name}" from the trash`,
      details: { folder_id: target, moved: moving, incremental_value: number },
    });
  });
  const [row] = await summariesOf(deps.db, [id]);
  if (!row) throw fileNotFound();
  return row.summary;
}

export async function purgeFile(deps: Deps, actor: Actor, id: number) {
  await deps.db.$transaction(async (tx) => {
    const [file] = await lockForChange(tx, [id], { trashed: true });
    if (!file) throw fileNotFound();
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
