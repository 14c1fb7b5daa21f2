import type { AuditAction, TComment, TFileVersion } from '@quire/contract';
import { type Actor, audit } from '../../lib/audit.js';
import type { Deps, Tx } from '../../lib/deps.js';
import { excel } from '../../lib/load-later.js';
import type { AuthContext } from '../../lib/session.js';
import { inertRow, sheetColumns } from '../../lib/spreadsheet-cells.js';
import { addVersion, detailOf, toPerson, versionContent } from '../file/file.service.js';
import {
  type FileChange,
  fileChanged,
  filesChanged,
  holdForChange,
  lockForChange,
} from '../file/file-change.service.js';
import { attachmentNotFound, fileNotFound, versionNotFound } from './file-actions.errors.js';
import * as repo from './file-actions.repository.js';

// What people do with a file: comment, attach and remove other files, download, trash,
// follow, favourite, roll back, export its record. Locks and check-outs are locking.service.ts.

export async function comment(deps: Deps, auth: AuthContext, actor: Actor, fileId: number, body: string) {
  return deps.db.$transaction(async (tx): Promise<TComment> => {
    const [file] = await lockForChange(tx, [fileId]);
    const c = await repo.createComment(tx, { fileId, authorId: auth.userId, body });
    await fileChanged(tx, actor, {
      event: 'commented',
      fileId,
      categoryId: file?.category_id ?? null,
      action: 'file.commented',
      message: `Commented on "${file?.name}"`,
      details: { comment_id: c.id },
    });
    return { id: c.id, author: toPerson(c.author), comment: c.body, created_at: c.createdAt.toISOString() };
  });
}

export async function deleteAttachments(deps: Deps, auth: AuthContext, actor: Actor, ids: number[]) {
  return deps.db.$transaction(async (tx) => {
    const found = await repo.attachmentsWithFiles(tx, ids);
    if (found.length !== new Set(ids).size) throw attachmentNotFound();
    const fileIds = [...new Set(found.map((a) => a.fileId))];
    const files = await holdForChange(tx, auth, fileIds);
    await repo.deleteAttachments(tx, ids);
    await filesChanged(
      tx,
      actor,
      files.map((f) => {
        const gone = found.filter((a) => a.fileId === f.id);
        return {
          event: 'attachment_removed',
          fileId: f.id,
          categoryId: f.category_id,
          action: 'file.attachment_removed',
          message: `Removed ${gone.map((a) => `"${a.name}"`).join(', ')} from "${f.name}"`,
          details: { attachments: gone.map((a) => ({ id: a.id, name: a.name, blob_id: a.blobId })) },
        };
      }),
    );
    return { deleted: found.length };
  });
}

/** A file's current version (or version `number`) to download; audited. */
export async function download(deps: Deps, actor: Actor, fileId: number, number?: number) {
  const version = number
    ? await repo.findVersionOf(deps.db, fileId, { number })
    : await repo.currentVersion(deps.db, fileId);
  if (!version) throw number ? versionNotFound() : fileNotFound();
  const content = await versionContent(deps, version);
  await audit(deps.db, actor, {
    type: 'file',
    action: 'file.downloaded',
    message: `Downloaded version ${version.number} of "${version.originalName}"`,
    targetType: 'file',
    targetId: fileId,
    details: { version_id: version.id },
  });
  return { ...content, filename: version.originalName };
}

export async function downloadAttachment(deps: Deps, actor: Actor, id: number) {
  const a = await repo.findAttachment(deps.db, id);
  if (!a) throw attachmentNotFound();
  const content = await versionContent(deps, a);
  await audit(deps.db, actor, {
    type: 'file',
    action: 'file.attachment_downloaded',
    message: `Downloaded the other file "${a.name}"`,
    targetType: 'file',
    targetId: a.fileId,
    details: { attachment_id: a.id },
  });
  return { ...content, filename: a.name };
}

/** Moves files to the trash: all or nothing (one held by someone else refuses the call). */
export async function trashFiles(deps: Deps, auth: AuthContext, actor: Actor, ids: number[]) {
  return deps.db.$transaction((tx) => trashFilesIn(tx, auth, actor, ids, deps.now()));
}

/** `trashFiles` in the caller's transaction (a retention disposition trashes this way). */
export async function trashFilesIn(tx: Tx, auth: AuthContext, actor: Actor, ids: number[], now: Date) {
  const files = await holdForChange(tx, auth, ids);
  await filesChanged(tx, actor, await trashLocked(tx, auth, files, now));
  return { deleted: files.length };
}

/**
 * Moves files locked and checked by `holdForChange` to the trash; answers their changes, one a
 * file in the order given, for the caller to record (`filesChanged`).
 */
export async function trashLocked(
  tx: Tx,
  auth: AuthContext,
  files: Array<{ id: number; name: string; category_id: number | null }>,
  now: Date,
): Promise<FileChange[]> {
  await repo.trash(
    tx,
    files.map((f) => f.id),
    now,
    auth.userId,
  );
  return files.map((f) => ({
    event: 'deleted',
    fileId: f.id,
    categoryId: f.category_id,
    action: 'file.deleted',
    message: `Moved "${f.name}" to the trash`,
  }));
}

type Toggle = 'follow' | 'unfollow' | 'favourite' | 'unfavourite';
const TOGGLES = {
  follow: repo.follow,
  unfollow: repo.unfollow,
  favourite: repo.favourite,
  unfavourite: repo.unfavourite,
} satisfies Record<Toggle, unknown>;
const TOGGLE_WORDS: Record<Toggle, string> = {
  follow: 'Followed',
  unfollow: 'Stopped following',
  favourite: 'Added to favourites',
  unfavourite: 'Took out of favourites',
};

const TOGGLE_ACTIONS = {
  follow: 'file.followed',
  unfollow: 'file.unfollowed',
  favourite: 'file.favourited',
  unfavourite: 'file.unfavourited',
} as const satisfies Record<Toggle, AuditAction<'file'>>;

/** Follow, unfollow, favourite, unfavourite: audited when something changed. */
export async function toggle(deps: Deps, auth: AuthContext, actor: Actor, fileId: number, what: Toggle) {
  await deps.db.$transaction(async (tx) => {
    const [file] = await lockForChange(tx, [fileId]);
    const changed = await TOGGLES[what](tx, fileId, auth.userId);
    if (!changed) return;
    await audit(tx, actor, {
      type: 'file',
      action: TOGGLE_ACTIONS[what],
      message: `${TOGGLE_WORDS[what]} "${file?.name}"`,
      targetType: 'file',
      targetId: fileId,
    });
  });
}

export async function rollback(
  deps: Deps,
  auth: AuthContext,
  actor: Actor,
  input: { file_id: number; version_id: number },
): Promise<TFileVersion> {
  await deps.db.$transaction(async (tx) => {
    const [file] = await holdForChange(tx, auth, [input.file_id]);
    if (!file) throw fileNotFound();
    const old = await repo.findVersionOf(tx, file.id, { id: input.version_id });
    if (!old) throw versionNotFound();
    const version = await addVersion(
      tx,
      auth,
      file.id,
      { blobId: old.blobId, size: Number(old.size), mimeType: old.mimeType, name: old.originalName },
      { comment: `Rolled back to version ${old.number}`, rolledBackFromId: old.id },
    );
    await fileChanged(tx, actor, {
      event: 'version_added',
      fileId: file.id,
      versionId: version.id,
      categoryId: file.category_id,
      action: 'file.rolled_back',
      message: `Rolled "${file.name}" back to version ${old.number} (now version ${version.number})`,
      details: { from_version: old.number, new_version: version.number },
    });
  });
  const detail = await detailOf(deps.db, auth, input.file_id, { now: deps.now() });
  return detail.versions[0] as TFileVersion;
}

/** A file's record as a spreadsheet: its values, versions and history. */
export async function exportRecord(deps: Deps, auth: AuthContext, actor: Actor, fileId: number) {
  const detail = await detailOf(deps.db, auth, fileId, { now: deps.now() });
  const history = await repo.fileHistory(deps.db, fileId);
  const book = new (excel().Workbook)();
  const sheet = book.addWorksheet('File');
  sheet.columns = [{ width: 24 }, { width: 60 }];
  const rows: Array<[string, string | number]> = [
    ['Name', detail.name],
    ['Category', detail.folder_name ?? ''],
    ['Number', detail.incremental ?? ''],
    ['Status', detail.index_status],
    ['Owner', detail.owner.name],
    ['Type', detail.mime_type],
    ['Size (bytes)', detail.size],
    ['Current version', detail.version],
    ['Locked by', detail.locked_by?.name ?? ''],
    ['Checked out by', detail.checked_out_by?.name ?? ''],
    ['Created', detail.created_at],
    ['Updated', detail.updated_at],
    ...detail.values.map((v): [string, string] => [v.name, v.display]),
  ];
  // Every text cell inert: a value or name such as =HYPERLINK(…) stays text (lib/spreadsheet-cells.ts).
  for (const r of rows) sheet.addRow(inertRow(r));
  sheet.getColumn(1).font = { bold: true };

  const versions = book.addWorksheet('Versions');
  versions.columns = sheetColumns([
    ['Version', 'number', 10],
    ['Name', 'name', 40],
    ['Type', 'type', 24],
    ['Size (bytes)', 'size', 14],
    ['Author', 'author', 24],
    ['Comment', 'comment', 40],
    ['Created', 'created', 26],
  ]);
  for (const v of detail.versions)
    versions.addRow(
      inertRow({
        number: v.number,
        name: v.name,
        type: v.mime_type,
        size: v.size,
        author: v.author.name,
        comment: v.comment,
        created: v.created_at,
      }),
    );

  const log = book.addWorksheet('Activity');
  log.columns = sheetColumns([
    ['When', 'when', 26],
    ['Who', 'who', 20],
    ['What', 'what', 24],
    ['Message', 'message', 70],
  ]);
  for (const e of history)
    log.addRow(
      inertRow({
        when: e.createdAt.toISOString(),
        who: e.user?.username ?? '',
        what: e.action,
        message: e.message,
      }),
    );
  for (const s of [versions, log]) s.getRow(1).font = { bold: true };

  await audit(deps.db, actor, {
    type: 'file',
    action: 'file.exported',
    message: `Exported the record of "${detail.name}"`,
    targetType: 'file',
    targetId: fileId,
  });
  return { content: Buffer.from(await book.xlsx.writeBuffer()), filename: `${detail.name} record.xlsx` };
}

/** Makes `userId` follow files, in one statement: the ids of those they did not follow before. */
export function followAllIn(tx: Tx, fileIds: number[], userId: number) {
  return repo.followMany(tx, fileIds, userId);
}

/** The current version rows of files, by file id, in one query (for the calls on many files). */
export function currentVersionsIn(tx: Tx, fileIds: number[]) {
  return repo.currentVersions(tx, fileIds);
}
