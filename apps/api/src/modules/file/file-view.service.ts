import { type Actor, audit } from '../../lib/audit.js';
import type { Deps } from '../../lib/deps.js';
import type { AuthContext } from '../../lib/session.js';
import { previewKind } from './file.content.js';
import { contentMissing, previewNeedsDownload, versionNotFound } from './file.errors.js';
import * as repo from './file.repository.js';
import { detailOf, rightsOn } from './file.service.js';

// Viewing a file: its page (recorded as a view) and a version's content to preview. The
// shapes of the page are file.service.ts (detailOf).

export async function viewFile(deps: Deps, auth: AuthContext, actor: Actor, id: number) {
  return deps.db.$transaction(async (tx) => {
    const detail = await detailOf(tx, auth, id, { now: deps.now() });
    await repo.recordView(tx, auth.userId, id, deps.now(), false);
    await audit(tx, actor, {
      type: 'file',
      action: 'file.viewed',
      message: `Viewed "${detail.name}"`,
      targetType: 'file',
      targetId: id,
    });
    return detail;
  });
}

/**
 * A version's content to preview (recorded as a preview of its file): PDFs, raster images and
 * plain text to whoever may view it; other types only to those who may also download it.
 */
export async function versionForPreview(deps: Deps, auth: AuthContext, actor: Actor, versionId: number) {
  const version = await repo.findVersion(deps.db, versionId);
  if (!version) throw versionNotFound();
  // Viewing shows a file, downloading hands it out: a type the browser cannot show inline
  // would go out whole, so it needs the download right (as download-files does).
  if (previewKind(version.mimeType) === 'none' && !(await rightsOn(deps.db, auth, version.fileId)).download)
    throw previewNeedsDownload();
  if (!(await deps.blobs.exists(version.blobId))) throw contentMissing();
  await deps.db.$transaction(async (tx) => {
    await repo.recordView(tx, auth.userId, version.fileId, deps.now(), true);
    await audit(tx, actor, {
      type: 'file',
      action: 'file.previewed',
      message: `Previewed version ${version.number} of "${version.originalName}"`,
      targetType: 'file',
      targetId: version.fileId,
      details: { version_id: version.id },
    });
  });
  return {
    blobId: version.blobId,
    size: Number(version.size),
    mimeType: version.mimeType,
    filename: version.originalName,
  };
}
