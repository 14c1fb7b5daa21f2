import type { TFieldValueInput } from '@quire/contract';
import type { Actor } from '../../lib/audit.js';
import type { Deps, Tx } from '../../lib/deps.js';
import type { AuthContext } from '../../lib/session.js';
import { displayName } from './file.content.js';
import { alreadyIndexed, categoryNotFound, notIndexed } from './file.errors.js';
import * as repo from './file.repository.js';
import { detailOf, purgeRow } from './file.service.js';
import { fileChanged, holdForChange, lockForChange } from './file-change.service.js';
import * as valuesRepo from './file-values.repository.js';
import { applyValues, assertCanFileInto, moveLockedFile } from './file-values.service.js';

// Indexing and correcting files: a file's first metadata values (submit), later edits, a new
// name, a move to another category, and cancelling an unfinished index. Every change goes
// through file.service.ts's change path (holds, workflow step) in one transaction with its
// audit event.

export async function submitMetas(
  deps: Deps,
  auth: AuthContext,
  actor: Actor,
  input: { file_id: number; values: TFieldValueInput[]; tag_ids?: number[] },
) {
  await deps.db.$transaction(async (tx) => {
    const [file] = (await holdForChange(tx, auth, [input.file_id])) as [repo.LockedFile];
    if (file.index_status === 'indexed') throw alreadyIndexed();
    if (file.category_id === null) throw categoryNotFound();
    const changed = await applyValues(tx, auth, file.id, file.category_id, input.values);
    const tags = input.tag_ids
      ? await valuesRepo.replaceTags(tx, file.id, file.category_id, input.tag_ids, auth.userId)
      : [];
    await repo.updateFile(tx, file.id, {
      indexStatus: 'indexed',
      indexedAt: deps.now(),
      indexedById: auth.userId,
    });
    await fileChanged(tx, actor, {
      event: 'indexed',
      fileId: file.id,
      categoryId: file.category_id,
      fieldIds: changed,
      action: 'file.indexed',
      message: `Indexed "${file.name}"`,
      details: { values: input.values, tag_ids: tags },
    });
  });
  return detailOf(deps.db, auth, input.file_id, { now: deps.now() });
}

export async function editValues(
  deps: Deps,
  auth: AuthContext,
  actor: Actor,
  input: { file_id: number; values: TFieldValueInput[] },
) {
  await deps.db.$transaction(async (tx) => {
    const [file] = (await holdForChange(tx, auth, [input.file_id])) as [repo.LockedFile];
    if (file.index_status !== 'indexed') throw notIndexed();
    if (file.category_id === null) throw categoryNotFound();
    const changed = await applyValues(tx, auth, file.id, file.category_id, input.values);
    await repo.updateFile(tx, file.id, { updatedAt: deps.now() });
    await fileChanged(tx, actor, {
      event: 'values_changed',
      fileId: file.id,
      categoryId: file.category_id,
      fieldIds: changed,
      action: 'file.values_changed',
      message: `Changed the values of "${file.name}"`,
      details: { values: input.values, changed },
    });
  });
  return detailOf(deps.db, auth, input.file_id, { now: deps.now() });
}

export async function renameFile(deps: Deps, auth: AuthContext, actor: Actor, fileId: number, raw: string) {
  const name = displayName(raw);
  await deps.db.$transaction(async (tx) => {
    const [file] = (await holdForChange(tx, auth, [fileId])) as [repo.LockedFile];
    await repo.updateFile(tx, fileId, { name });
    await fileChanged(tx, actor, {
      event: 'renamed',
      fileId,
      categoryId: file.category_id,
      action: 'file.renamed',
      message: `Renamed "${file.name}" to "${name}"`,
      details: { before: file.name, after: name },
    });
  });
  return detailOf(deps.db, auth, fileId, { now: deps.now() });
}

export async function moveFile(
  deps: Deps,
  auth: AuthContext,
  actor: Actor,
  input: { file_id: number; folder_id: number; values?: TFieldValueInput[] },
) {
  await assertCanFileInto(deps.db, auth, input.folder_id);
  await deps.db.$transaction(async (tx) => {
    const [file] = (await lockForChange(tx, [input.file_id])) as [repo.LockedFile];
    await moveLockedFile(tx, auth, actor, file, input.folder_id, input.values);
  });
  return detailOf(deps.db, auth, input.file_id, { now: deps.now() });
}

/** Drops an unindexed file (the row and its versions; the content is collected later). */
export async function cancelIndex(deps: Deps, auth: AuthContext, actor: Actor, fileId: number) {
  await deps.db.$transaction(async (tx) => {
    const [file] = (await holdForChange(tx, auth, [fileId])) as [repo.LockedFile];
    if (file.index_status === 'indexed') throw alreadyIndexed();
    await fileChanged(tx, actor, {
      event: 'cancelled',
      fileId,
      categoryId: file.category_id,
      action: 'file.cancelled',
      message: `Cancelled the upload of "${file.name}"`,
      details: { name: file.name, folder_id: file.category_id },
    });
    await purgeRow(tx, fileId);
  });
}

/**
 * Leaves an unindexed file for a person (who becomes its owner) or for every member of a group
 * (each may then index or drop it as its owner may, and finds it in their unindexed files):
 * intake's sources and rules. In the caller's transaction, which writes the audit event; false
 * when the file is indexed or gone.
 */
export async function leaveUnindexedFor(
  tx: Tx,
  fileId: number,
  to: { userId: number } | { groupId: number },
): Promise<boolean> {
  const data =
    'userId' in to ? { ownerId: to.userId, unindexedGroupId: null } : { unindexedGroupId: to.groupId };
  return (await repo.setUnindexedFor(tx, fileId, data)) === 1;
}
