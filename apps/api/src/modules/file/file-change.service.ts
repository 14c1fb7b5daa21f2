import type { AuditAction } from '@quire/contract';
import { type Actor, type AuditInput, audit, auditAll } from '../../lib/audit.js';
import type { Tx } from '../../lib/deps.js';
import { AppError } from '../../lib/errors.js';
import { emitFileEvent, emitFileEvents, type FileEvent, type FileEventType } from '../../lib/file-events.js';
import type { AuthContext } from '../../lib/session.js';
import { assertCategoriesNotHeld, assertNotHeld } from '../retention/legal-hold.guard.js';
import { assertStepAllowsEdit } from '../workflow/run.service.js';
import { fileCheckedOut, fileLocked, fileNotFound } from './file.errors.js';
import * as repo from './file.repository.js';

// The one change path of a file (docs/architecture.md): lock its rows, refuse it while someone
// else holds it (lock, check-out), while a legal hold freezes it or while its workflow step
// forbids the change, then record the change (audit event and file event) in the same
// transaction. Every call that changes a file goes through here.

/**
 * Refuses a change to a file locked or checked out by someone else (409 naming the holder).
 * A File Control writer is refused too: they release the file first (lock-file, check-in).
 */
export function assertFree(file: repo.LockedFile, auth: AuthContext) {
  if (file.locked_by_id !== null && file.locked_by_id !== auth.userId)
    throw fileLocked(file.lock_holder_name ?? 'Someone');
  if (file.checked_out_by_id !== null && file.checked_out_by_id !== auth.userId)
    throw fileCheckedOut(file.checkout_holder_name ?? 'Someone');
}

/** Locks files `ids` for this transaction; one that is gone (trashed meanwhile) is a 404. */
export async function lockForChange(tx: Tx, ids: number[], options: { trashed?: boolean } = {}) {
  const rows = await repo.lockFiles(tx, ids, options);
  if (rows.length !== new Set(ids).size) throw fileNotFound();
  return rows;
}

/**
 * Whether the caller may change files locked by `lockForChange`: none held by someone else
 * (a lock or check-out: 409 naming the holder; `holders: false` for permissions and shares,
 * which the holder rules leave open), none under a legal hold (409 `retention.legal_hold`
 * naming the hold's reason, for everyone; permissions and shares stay open here too) and none
 * waiting in a workflow step the caller is not assigned to (403 `workflow.step_holds_file`;
 * File Control writers may).
 */
export async function assertMayChange(
  tx: Tx,
  auth: AuthContext,
  files: repo.LockedFile[],
  options: { holders?: boolean } = {},
) {
  if (options.holders ?? true) {
    for (const f of files) assertFree(f, auth);
    await assertNotHeld(tx, files);
  }
  await assertStepAllowsEdit(
    tx,
    auth,
    files.map((f) => f.id),
  );
}

/**
 * The one way into a change of files (values, name, index, versions, other files, trash,
 * permissions, shares): locks their rows, then `assertMayChange`. A file that is gone is a 404.
 */
export async function holdForChange(
  tx: Tx,
  auth: AuthContext,
  ids: number[],
  options: { holders?: boolean } = {},
) {
  const rows = await lockForChange(tx, ids);
  await assertMayChange(tx, auth, rows, options);
  return rows;
}

/**
 * The files of categories about to be deleted, through the one change path: their rows
 * locked, and the whole deletion refused when one of them may not change (held by someone
 * else, under legal hold, or waiting in a workflow step), naming that file; or when one of
 * the categories, or one above them, is itself on legal hold (even with no file in it).
 */
export async function holdFilesIn(tx: Tx, auth: AuthContext, categoryIds: number[]) {
  await assertCategoriesNotHeld(tx, categoryIds);
  const ids = await repo.liveFileIdsIn(tx, categoryIds);
  if (!ids.length) return;
  const files = await lockForChange(tx, ids);
  // All at once first (one query per check, not per file); only a refusal goes file by file,
  // to name the first file refused, with its own first refusal.
  const refusal = await assertMayChange(tx, auth, files).then(
    () => null,
    (error: unknown) => {
      if (error instanceof AppError) return error;
      throw error;
    },
  );
  if (!refusal) return;
  for (const file of files)
    try {
      await assertMayChange(tx, auth, [file]);
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      throw new AppError(
        error.code,
        error.statusCode,
        `"${file.name}": ${error.message} Nothing was deleted.`,
        error.errors,
        { refusal: error.refusal },
      );
    }
  throw refusal;
}

export interface FileChange {
  event: FileEventType;
  fileId: number;
  action: AuditAction<'file'>;
  message: string;
  categoryId?: number | null;
  versionId?: number;
  fieldIds?: number[];
  details?: Record<string, unknown>;
}

/** The audit event and the file event of one change, in its transaction. */
export async function fileChanged(tx: Tx, actor: Actor, change: FileChange) {
  await audit(tx, actor, auditOf(change));
  await emitFileEvent(tx, eventOf(actor, change));
}

/**
 * `fileChanged` for many changes at once (a call on many files), in its transaction: their
 * audit events in one statement, then their file events in another, each in the order given.
 */
export function filesChanged(tx: Tx, actor: Actor, changes: FileChange[]) {
  return filesChangedAmong(
    tx,
    actor,
    changes.map((change) => ({ change })),
  );
}

/**
 * `filesChanged` with audit events of the caller's among the changes' own: `trail` in its
 * order in one statement (a change's audit event where the change is), then the changes' file
 * events in another, in their order.
 */
export async function filesChangedAmong(
  tx: Tx,
  actor: Actor,
  trail: ReadonlyArray<{ audit: AuditInput } | { change: FileChange }>,
) {
  await auditAll(
    tx,
    actor,
    trail.map((entry) => ('audit' in entry ? entry.audit : auditOf(entry.change))),
  );
  await emitFileEvents(
    tx,
    trail.flatMap((entry) => ('change' in entry ? [eventOf(actor, entry.change)] : [])),
  );
}

function auditOf(change: FileChange) {
  return {
    type: 'file' as const,
    action: change.action,
    message: change.message,
    targetType: 'file',
    targetId: change.fileId,
    details: (change.details ?? {}) as never,
  };
}

function eventOf(actor: Actor, change: FileChange): FileEvent {
  return {
    type: change.event,
    file_id: change.fileId,
    ...(change.versionId ? { version_id: change.versionId } : {}),
    ...(change.fieldIds ? { field_ids: change.fieldIds } : {}),
    ...(change.categoryId !== undefined ? { category_id: change.categoryId } : {}),
    actor_id: actor.userId,
  };
}
