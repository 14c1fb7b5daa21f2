import { PassThrough, type Readable } from 'node:stream';
import { type Actor, auditAll } from '../../lib/audit.js';
import type { Deps, Tx } from '../../lib/deps.js';
import { AppError } from '../../lib/errors.js';
import { zipWriter } from '../../lib/load-later.js';
import type { AuthContext } from '../../lib/session.js';
import { type FileRight, fileRights, scopeOf } from '../../lib/visibility.js';
import { combineIntoPdf } from '../file/combine.service.js';
import { versionContent } from '../file/file.service.js';
import { assertFree, lockForChange } from '../file/file-change.service.js';
import { assertCanFileInto, moveLockedFile, moveLockedFiles } from '../file/file-values.service.js';
import { currentVersionsIn, followAllIn } from '../file-actions/file-actions.service.js';
import { bulkFileForbidden, bulkFileNotFound, bulkFileRefused } from './file-bulk.errors.js';

// Calls on many files at once: each checks the caller's right on every file, takes their row
// locks, and changes all of them in one transaction, or none (the refusal names the file).

const VERBS: Record<FileRight, string> = {
  view: 'see',
  download: 'download',
  edit: 'move',
  delete: 'delete',
  share: 'share',
};

/**
 * Files `ids`, locked for this transaction, each of which the caller may `right`: a file that
 * is gone or out of sight is a 404 (unnamed), one without the right a 403 naming it.
 */
async function lockEach(tx: Tx, auth: AuthContext, ids: number[], right: FileRight) {
  const unique = [...new Set(ids)];
  const rights = await fileRights(tx, scopeOf(auth), unique);
  if (unique.some((id) => !rights.has(id))) throw bulkFileNotFound();
  const files = await lockForChange(tx, unique).catch((error: unknown) => {
    throw error instanceof AppError && error.statusCode === 404 ? bulkFileNotFound() : error;
  });
  const refused = files.find((f) => !rights.get(f.id)?.[right]);
  if (refused) throw bulkFileForbidden(VERBS[right], refused.name);
  return files;
}

/** Runs `check` on one file; its refusal is answered with the file's name. */
async function naming<T>(name: string, check: () => T | Promise<T>): Promise<T> {
  try {
    return await check();
  } catch (error) {
    if (error instanceof AppError && error.statusCode < 500) throw bulkFileRefused(name, error);
    throw error;
  }
}

/** Moves files to the category `folder_id` (edit on each, upload there). */
export async function bulkMove(
  deps: Deps,
  auth: AuthContext,
  actor: Actor,
  input: { file_ids: number[]; folder_id: number },
) {
  return deps.db.$transaction(async (tx) => {
    await assertCanFileInto(tx, auth, input.folder_id);
    const files = await lockEach(tx, auth, input.file_ids, 'edit');
    // All at once; file by file only when one may not move, to name it with its refusal.
    if (!(await moveLockedFiles(tx, auth, actor, files, input.folder_id)))
      for (const f of files)
        await naming(f.name, async () => {
          assertFree(f, auth);
          await moveLockedFile(tx, auth, actor, f, input.folder_id);
        });
    return { moved: files.length };
  });
}

/** Follows files (view on each); audited for each file not followed before. */
export async function bulkFollow(deps: Deps, auth: AuthContext, actor: Actor, ids: number[]) {
  return deps.db.$transaction(async (tx) => {
    const files = await lockEach(tx, auth, ids, 'view');
    const added = await followAllIn(
      tx,
      files.map((f) => f.id),
      auth.userId,
    );
    const followed = files.filter((f) => added.has(f.id));
    await auditAll(
      tx,
      actor,
      followed.map((f) => ({
        type: 'file' as const,
        action: 'file.followed' as const,
        message: `Followed "${f.name}"`,
        targetType: 'file',
        targetId: f.id,
      })),
    );
    return { followed: followed.length };
  });
}

/**
 * Files `ids` (download on each), in the order given, each with its current version, whose
 * content must be in the store: a refusal names the file.
 */
async function downloadable(deps: Deps, tx: Tx, auth: AuthContext, ids: number[]) {
  const files = await lockEach(tx, auth, ids, 'download');
  const byId = new Map(files.map((f) => [f.id, f]));
  const versions = await currentVersionsIn(
    tx,
    files.map((f) => f.id),
  );
  const out = [];
  for (const id of new Set(ids)) {
    const file = byId.get(id);
    if (!file) throw bulkFileNotFound();
    const version = await naming(file.name, async () => {
      const v = versions.get(file.id);
      if (!v) throw bulkFileNotFound();
      return { ...v, ...(await versionContent(deps, v)) };
    });
    out.push({ file, version });
  }
  return out;
}

type Downloadable = Awaited<ReturnType<typeof downloadable>>;

/** One `file.downloaded` event per file, saying it went out in a zip or a PDF of them all. */
function auditDownloads(tx: Tx, actor: Actor, entries: Downloadable, as: 'zip' | 'pdf') {
  return auditAll(
    tx,
    actor,
    entries.map(({ file, version }) => ({
      type: 'file' as const,
      action: 'file.downloaded' as const,
      message: `Downloaded version ${version.number} of "${file.name}" (in a ${as === 'zip' ? 'zip' : 'PDF'} of ${entries.length})`,
      targetType: 'file',
      targetId: file.id,
      details: { version_id: version.id, [as]: true },
    })),
  );
}

/** A name fit for a zip entry (no folders), unique among `taken`. */
function entryName(raw: string, taken: Set<string>): string {
  const clean = raw.replace(/[\\/]/g, '_').replace(/^\.+$/, '') || 'file';
  const dot = clean.lastIndexOf('.');
  const [stem, ext] = dot > 0 ? [clean.slice(0, dot), clean.slice(dot)] : [clean, ''];
  let name = clean;
  for (let n = 2; taken.has(name.toLowerCase()); n++) name = `${stem} (${n})${ext}`;
  taken.add(name.toLowerCase());
  return name;
}

/** Content that gains from deflate (office files, images and PDFs are compressed already). */
const compressible = (mime: string) =>
  mime.startsWith('text/') || /(json|xml|csv|rtf|msword|ms-excel|ms-powerpoint)$/.test(mime);

/**
 * The current version of each file (download on each) as one zip, streamed: each entry's
 * content is read from the store only when the zip reaches it, and written out as it is read,
 * so the archive is never held whole. Every download is audited, in one transaction, before
 * the first byte is sent; a missing content refuses the call before that.
 */
export async function downloadZip(
  deps: Deps,
  auth: AuthContext,
  actor: Actor,
  ids: number[],
): Promise<{ stream: Readable; filename: string }> {
  const entries = await deps.db.$transaction(async (tx) => {
    const out = await downloadable(deps, tx, auth, ids);
    await auditDownloads(tx, actor, out, 'zip');
    return out;
  });
  const zip = new (zipWriter().ZipFile)();
  const taken = new Set<string>();
  for (const { file, version } of entries) {
    zip.addReadStreamLazy(
      entryName(file.name, taken),
      { size: version.size, mtime: version.createdAt, compress: compressible(version.mimeType) },
      (done) => {
        deps.blobs.read(version.blobId).then(
          (stream) => done(null, stream),
          (error: unknown) => done(error, new PassThrough()),
        );
      },
    );
  }
  zip.end();
  const stream = new PassThrough();
  zip.outputStream.pipe(stream);
  zip.on('error', (error: Error) => stream.destroy(error));
  const day = deps.now().toISOString().slice(0, 10);
  return { stream, filename: `Quire files ${day}.zip` };
}

/**
 * The current version of each file (download on each) as one PDF, in the order given: PDFs
 * bring their pages, PNG and JPEG images a page each (combine.service.ts, in a child
 * process). A file of any other type refuses the whole call, every such file named; nothing
 * is audited unless the PDF is made, then one download event per file.
 */
export async function downloadPdf(
  deps: Deps,
  auth: AuthContext,
  actor: Actor,
  ids: number[],
): Promise<{ content: Buffer; filename: string }> {
  const entries = await deps.db.$transaction((tx) => downloadable(deps, tx, auth, ids));
  const content = await combineIntoPdf(
    deps,
    entries.map(({ file, version }) => ({ name: file.name, ...version })),
    'body.file_ids',
  );
  await deps.db.$transaction((tx) => auditDownloads(tx, actor, entries, 'pdf'));
  const day = deps.now().toISOString().slice(0, 10);
  return { content, filename: `Quire files ${day}.pdf` };
}
