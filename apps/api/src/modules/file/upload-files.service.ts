import type { TAttachment } from '@quire/contract';
import type { Actor } from '../../lib/audit.js';
import { type Deps, type Tx, UPLOAD_TX } from '../../lib/deps.js';
import { type Arrival, type GroupWriter, groupCommit } from '../../lib/group-commit.js';
import type { AuthContext } from '../../lib/session.js';
import { categoryNotFound } from './file.errors.js';
import * as repo from './file.repository.js';
import { type StoredUpload, toAttachment, toSummary } from './file.service.js';
import { filesChanged, holdForChange } from './file-change.service.js';
import type { SummaryRow } from './file-lists.repository.js';

// Uploads: new files into a category (each its own row, running number and first version)
// and attachments to a file, streamed into the blob store part by part.

/**
 * The new-upload writes of one database, grouped (lib/group-commit.ts): uploads that finish
 * while another's rows are committing are written together, in one statement and one commit,
 * and a group about to go waits up to UPLOAD_GROUP_WAIT_MS for the uploads whose content is
 * still being stored (expectUpload). A group of eight costs the database about what two
 * single uploads do (0.42-0.45 ms a file against 1.2-1.5 ms alone, one connection).
 */
const UPLOAD_GROUP_WAIT_MS = 3;
type UploadWriter = GroupWriter<repo.UploadEntry, SummaryRow[] | null>;
const uploadWriters = new WeakMap<Deps['db'], UploadWriter>();
function uploadWriter(deps: Deps) {
  let write = uploadWriters.get(deps.db);
  if (!write) {
    write = groupCommit((entries: repo.UploadEntry[]) => repo.insertUploadsAlone(deps.db, entries), {
      waitMs: UPLOAD_GROUP_WAIT_MS,
    });
    uploadWriters.set(deps.db, write);
  }
  return write;
}

/** An upload whose files are being stored: createUploads' group waits for it (then pass it there). */
export type ExpectedUpload = Arrival<repo.UploadEntry, SummaryRow[] | null>;

/** Says an upload is coming (its content is storing); cancel it when the upload goes no further. */
export function expectUpload(deps: Deps): ExpectedUpload {
  return uploadWriter(deps).expect();
}

/**
 * Files uploaded into a category become unindexed files of the uploader, numbered in order.
 * Their content is in the store and synced before this; the rows, audit events and file event
 * jobs are then one statement (repo.insertUploads), shared with the uploads that finish at the
 * same time (group commit), which also answers the files' summaries: one round trip and one
 * commit for many files, and the categories' row locks (for the running numbers) held only for
 * that statement's end. `expected`: this upload's announcement (expectUpload), if made.
 */
export async function createUploads(
  deps: Deps,
  auth: AuthContext,
  actor: Actor,
  categoryId: number,
  uploads: StoredUpload[],
  expected?: ExpectedUpload,
) {
  const rows = await (expected?.write ?? uploadWriter(deps))({
    folderId: categoryId,
    ownerId: auth.userId,
    actor,
    uploads: uploads.map((u) => ({ ...u, message: `Uploaded "${u.name}"` })),
  });
  if (!rows) throw categoryNotFound();
  return { folder_id: categoryId, files: rows.map(toSummary) };
}

/**
 * One new file written in the caller's transaction, for a caller that must commit it with rows
 * of its own (intake: the arrival that claims it), without the group commit. The same rows,
 * audit event and file event jobs as an upload; null when the category is gone.
 */
export async function createUploadIn(
  tx: Tx,
  input: { categoryId: number; ownerId: number; actor: Actor; upload: StoredUpload; message: string },
) {
  const [rows] = await repo.insertUploads(tx, [
    {
      folderId: input.categoryId,
      ownerId: input.ownerId,
      actor: input.actor,
      uploads: [{ ...input.upload, message: input.message }],
    },
  ]);
  const row = rows?.[0];
  return row ? toSummary(row) : null;
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
    await repo.upsertBlobs(
      tx,
      uploads.map((u) => ({ id: u.blobId, size: u.size, mimeType: u.mimeType })),
    );
    const added = await repo.createAttachments(
      tx,
      uploads.map((u) => ({
        fileId,
        blobId: u.blobId,
        name: u.name,
        mimeType: u.mimeType,
        size: BigInt(u.size),
        uploadedById: auth.userId,
      })),
    );
    await filesChanged(
      tx,
      actor,
      uploads.map((u, i) => ({
        event: 'attachment_added',
        fileId,
        action: 'file.attachment_added',
        message: `Attached "${u.name}" to "${file?.name}"`,
        details: { attachment_id: added[i]!.id, blob_id: u.blobId, size: u.size, mime_type: u.mimeType },
      })),
    );
    return added.map(toAttachment);
  }, UPLOAD_TX);
}
