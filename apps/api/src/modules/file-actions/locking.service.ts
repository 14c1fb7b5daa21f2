import type { Actor } from '../../lib/audit.js';
import type { Deps } from '../../lib/deps.js';
import type { AuthContext } from '../../lib/session.js';
import { scopeOf } from '../../lib/visibility.js';
import { addVersion, detailOf, type StoredUpload, toPerson } from '../file/file.service.js';
import { assertMayChange, fileChanged, lockForChange } from '../file/file-change.service.js';
import { fileCheckedOut, fileLocked, fileNotFound, notCheckedOut } from './file-actions.errors.js';
import * as repo from './file-actions.repository.js';

// Locks and check-outs (spec §3): lock and unlock, check out and check in (with a new version
// or without), who may release another person's, and the state a file is left in.

async function stateOf(deps: Deps, fileId: number) {
  const s = await repo.fileState(deps.db, fileId);
  return {
    file_id: s.id,
    locked_by: s.lockedBy ? toPerson(s.lockedBy) : null,
    checked_out_by: s.checkedOutBy ? toPerson(s.checkedOutBy) : null,
  };
}

/** Whether the caller may release a lock or check-out someone else holds: File Control writers. */
const mayReleaseOthersHolds = (auth: AuthContext) => {
  const scope = scopeOf(auth);
  return scope.kind === 'all' && scope.write;
};

/** Lock (status "1") or unlock; someone else's lock is released only by a File Control writer. */
export async function lock(
  deps: Deps,
  auth: AuthContext,
  actor: Actor,
  input: { file_id: number; status: string },
) {
  const locking = input.status === '1';
  await deps.db.$transaction(async (tx) => {
    const [file] = await lockForChange(tx, [input.file_id]);
    if (!file) throw fileNotFound();
    if (locking) {
      if (file.locked_by_id === auth.userId) return;
      await assertMayChange(tx, auth, [file]);
      await repo.setLock(tx, file.id, { userId: auth.userId, at: deps.now() });
      await fileChanged(tx, actor, {
        event: 'locked',
        fileId: file.id,
        categoryId: file.category_id,
        action: 'file.locked',
        message: `Locked "${file.name}"`,
      });
      return;
    }
    if (file.locked_by_id === null) return;
    const theirs = file.locked_by_id !== auth.userId;
    if (theirs && !mayReleaseOthersHolds(auth)) throw fileLocked(file.lock_holder_name ?? 'Someone');
    await repo.setLock(tx, file.id, null);
    await fileChanged(tx, actor, {
      event: 'unlocked',
      fileId: file.id,
      categoryId: file.category_id,
      action: theirs ? 'file.lock_released' : 'file.unlocked',
      message: theirs
        ? `Released the lock ${file.lock_holder_name} held on "${file.name}"`
        : `Unlocked "${file.name}"`,
      details: { holder_id: file.locked_by_id },
    });
  });
  return stateOf(deps, input.file_id);
}

export async function checkOut(deps: Deps, auth: AuthContext, actor: Actor, fileId: number) {
  await deps.db.$transaction(async (tx) => {
    const [file] = await lockForChange(tx, [fileId]);
    if (!file) throw fileNotFound();
    if (file.checked_out_by_id === auth.userId) return;
    await assertMayChange(tx, auth, [file]);
    await repo.setCheckOut(tx, fileId, { userId: auth.userId, at: deps.now() });
    await fileChanged(tx, actor, {
      event: 'checked_out',
      fileId,
      categoryId: file.category_id,
      action: 'file.checked_out',
      message: `Checked out "${file.name}"`,
    });
  });
  return stateOf(deps, fileId);
}

/**
 * Before a byte of a check-in's file is read: the caller holds the check-out (or, without a
 * new file, is a File Control writer releasing someone else's).
 */
export async function assertCanCheckIn(deps: Deps, auth: AuthContext, fileId: number, withFile: boolean) {
  await deps.db.$transaction(async (tx) => {
    const [file] = await lockForChange(tx, [fileId]);
    if (file) checkInRule(file, auth, withFile);
  });
}

function checkInRule(
  file: {
    checked_out_by_id: number | null;
    checkout_holder_name: string | null;
    locked_by_id: number | null;
    lock_holder_name: string | null;
  },
  auth: AuthContext,
  withFile: boolean,
) {
  if (file.checked_out_by_id === null) throw notCheckedOut();
  if (file.checked_out_by_id !== auth.userId && (withFile || !mayReleaseOthersHolds(auth)))
    throw fileCheckedOut(file.checkout_holder_name ?? 'Someone');
  if (withFile && file.locked_by_id !== null && file.locked_by_id !== auth.userId)
    throw fileLocked(file.lock_holder_name ?? 'Someone');
}

export async function checkIn(
  deps: Deps,
  auth: AuthContext,
  actor: Actor,
  input: { file_id: number; comment?: string },
  upload: StoredUpload | null,
) {
  await deps.db.$transaction(async (tx) => {
    const [file] = await lockForChange(tx, [input.file_id]);
    if (!file) throw fileNotFound();
    checkInRule(file, auth, upload !== null);
    // A new version is a change; handing back the check-out alone is not.
    if (upload) await assertMayChange(tx, auth, [file]);
    const theirs = file.checked_out_by_id !== auth.userId;
    const version = upload
      ? await addVersion(tx, auth, file.id, upload, { comment: input.comment ?? '' })
      : null;
    await repo.setCheckOut(tx, file.id, null);
    if (version)
      await fileChanged(tx, actor, {
        event: 'version_added',
        fileId: file.id,
        versionId: version.id,
        categoryId: file.category_id,
        action: 'file.version_added',
        message: `Added version ${version.number} of "${file.name}"`,
        details: {
          version: version.number,
          blob_id: upload?.blobId,
          size: upload?.size,
          mime_type: upload?.mimeType,
        },
      });
    await fileChanged(tx, actor, {
      event: 'checked_in',
      fileId: file.id,
      ...(version ? { versionId: version.id } : {}),
      categoryId: file.category_id,
      action: theirs ? 'file.check_out_released' : 'file.checked_in',
      message: theirs
        ? `Released the check-out ${file.checkout_holder_name} held on "${file.name}"`
        : `Checked in "${file.name}"${version ? ` as version ${version.number}` : ''}`,
      details: { holder_id: file.checked_out_by_id, comment: input.comment ?? '' },
    });
  });
  return detailOf(deps.db, auth, input.file_id, { now: deps.now() });
}
