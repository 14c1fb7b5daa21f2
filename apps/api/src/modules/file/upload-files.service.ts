import type { TAttachment } from '@quire/contract';
import type { Actor } from '../../lib/audit.js';
import type { Deps } from '../../lib/deps.js';
import type { AuthContext } from '../../lib/session.js';
import { categoryNotFound } from './file.errors.js';
import * as repo from './file.repository.js';
import { fileChanged, holdForChange, type StoredUpload, toAttachment, toSummary } from './file.service.js';
import * as listsRepo from './file-lists.repository.js';

// Uploads: new files into a category (each its own row, running number and first version)
// and attachments to a file, streamed into the blob store part by part.

/**
 * An attachment upload's transaction writes rows only: its content is in the store and synced
 * before it starts. Under load it may wait for a pooled connection or for another upload's
 * commit (the same content's blob row); waiting is not a failure, so it has longer than
 * Prisma's defaults (2 s to start, 5 s to finish).
 */
const UPLOAD_TX = { maxWait: 30_000, timeout: 30_000 };

/**
 * Files uploaded into a category become unindexed files of the uploader, numbered in order.
 * Their content is in the store and synced before this; the rows, audit events and file event
 * jobs are then one statement (repo.insertUploads), committed on its own: one round trip to
 * the database instead of one per row, and the category's row lock (for the running numbers)
 * held only for that statement's few milliseconds.
 */
export async function createUploads(
  deps: Deps,
  auth: AuthContext,
  actor: Actor,
  folderId: number,
  uploads: StoredUpload[],
) {
  const ids = await repo.insertUploads(deps.db, {
    folderId,
    ownerId: auth.userId,
    actor,
    uploads: uploads.map((u) => ({ ...u, message: `Uploaded "${u.name}"` })),
  });
  if (!ids) throw categoryNotFound();
  return { folder_id: folderId, files: (await listsRepo.summaries(deps.db, ids)).map(toSummary) };
}

/** Other files attached to a file (its holder's rules apply: a change). */
export async function addAttachments(
  deps: Deps,
  auth: AuthContext,
  actor: Actor,
  fileId: number,
  uploads: StoredUpload[],
): Promise<TAttachment[]> {
  return deps.db.$transaction(async (tx) => {
    const [file] = await holdForChange(tx, auth, [fileId]);
    const out: TAttachment[] = [];
    for (const u of uploads) {
      await repo.upsertBlob(tx, { id: u.blobId, size: u.size, mimeType: u.mimeType });
      const a = await repo.createAttachment(tx, {
        fileId,
        blobId: u.blobId,
        name: u.name,
        mimeType: u.mimeType,
        size: BigInt(u.size),
        uploadedById: auth.userId,
      });
      await fileChanged(tx, actor, {
        event: 'attachment_added',
        fileId,
        action: 'file.attachment_added',
        message: `Attached "${u.name}" to "${file?.name}"`,
        details: { attachment_id: a.id, blob_id: u.blobId, size: u.size, mime_type: u.mimeType },
      });
      out.push(toAttachment(a));
    }
    return out;
  }, UPLOAD_TX);
}
