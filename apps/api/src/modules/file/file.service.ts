import type {
  TAttachment,
  TFileDetail,
  TFileRights,
  TFileSummary,
  TFileVersion,
  TPersonRef,
} from '@quire/contract';
import type { Deps, Tx } from '../../lib/deps.js';
import type { UploadedFile } from '../../lib/multipart.js';
import type { AuthContext } from '../../lib/session.js';
import { asFileRight, fileRights, fileVerdict, scopeOf } from '../../lib/visibility.js';
import { categoryFields } from '../category/category.service.js';
import { detectType, displayName, previewKind, SNIFF_BYTES } from './file.content.js';
import { categoryNotFound, contentMissing, fileNotFound } from './file.errors.js';
import { showValue } from './file.metadata.js';
import * as repo from './file.repository.js';
import { assertMayChange } from './file-change.service.js';
import * as listsRepo from './file-lists.repository.js';
import * as valuesRepo from './file-values.repository.js';

// The files area's kernel: the shapes of every answer, the guards of versions and attachments,
// storing an upload's content and adding versions (the one change path is
// file-change.service.ts). Viewing is file-view.service.ts, values and moves
// file-values.service.ts, uploads into a category upload-files.service.ts, indexing and
// corrections index-files.service.ts.
// Every change is audited and emits a file event in its transaction (lib/file-events.ts).

// ---------------------------------------------------------------------------------------------
// Shapes

type Person = { id: number; username: string; firstName: string; lastName: string };

export function personName(p: { username: string; firstName?: string; lastName?: string }): string {
  return `${p.firstName ?? ''} ${p.lastName ?? ''}`.trim() || p.username;
}

export function toPerson(p: Person): TPersonRef {
  return { id: p.id, name: personName(p), username: p.username };
}

function rowPerson(id: number | null, username: string | null, first: string | null, last: string | null) {
  if (id === null || username === null) return null;
  return toPerson({ id, username, firstName: first ?? '', lastName: last ?? '' });
}

export function incrementalText(prefix: string | null | undefined, value: number | null): string | null {
  return value === null ? null : `${prefix ?? ''}${value}`;
}

export function toSummary(r: listsRepo.SummaryRow): TFileSummary {
  return {
    id: r.id,
    name: r.name,
    folder_id: r.category_id,
    folder_name: r.category_name,
    index_status: r.index_status,
    incremental: incrementalText(r.prefix, r.incremental_value),
    owner: toPerson({
      id: r.owner_id,
      username: r.owner_username,
      firstName: r.owner_first,
      lastName: r.owner_last,
    }),
    mime_type: r.mime_type,
    size: Number(r.size),
    version: r.version,
    locked_by: rowPerson(r.lock_id, r.lock_username, r.lock_first, r.lock_last),
    checked_out_by: rowPerson(r.co_id, r.co_username, r.co_first, r.co_last),
    created_at: r.created_at.toISOString(),
    updated_at: r.updated_at.toISOString(),
  };
}

function toVersion(
  v: repo.FileDetailRow['versions'][number],
  currentId: number | null,
  numbers: Map<number, number>,
): TFileVersion {
  return {
    id: v.id,
    number: v.number,
    name: v.originalName,
    mime_type: v.mimeType,
    size: Number(v.size),
    author: toPerson(v.author),
    comment: v.comment,
    rolled_back_from: v.rolledBackFromId === null ? null : (numbers.get(v.rolledBackFromId) ?? null),
    is_current: v.id === currentId,
    preview: previewKind(v.mimeType),
    created_at: v.createdAt.toISOString(),
  };
}

export function toAttachment(a: {
  id: number;
  fileId: number;
  name: string;
  mimeType: string;
  size: bigint;
  createdAt: Date;
  uploadedBy: Person;
}): TAttachment {
  return {
    id: a.id,
    file_id: a.fileId,
    name: a.name,
    mime_type: a.mimeType,
    size: Number(a.size),
    uploaded_by: toPerson(a.uploadedBy),
    created_at: a.createdAt.toISOString(),
  };
}

const NONE: TFileRights = { view: false, download: false, edit: false, delete: false, share: false };

/** What the caller may do with one file (all false when they may not see it). */
export async function rightsOn(
  db: Tx,
  auth: AuthContext,
  fileId: number,
  trashed = false,
): Promise<TFileRights> {
  return (await fileRights(db, scopeOf(auth), [fileId], { trashed })).get(fileId) ?? NONE;
}

/** A file's whole page, for a caller who may see it (checked by the object guard). */
export async function detailOf(
  db: Tx,
  auth: AuthContext,
  id: number,
  options: { trashed?: boolean; now?: Date } = {},
): Promise<TFileDetail> {
  const f = await repo.findFileDetail(db, id, options);
  if (!f) throw fileNotFound();
  const rights = options.trashed
    ? { view: true, download: true, edit: false, delete: false, share: false }
    : await rightsOn(db, auth, id);
  const fields = f.categoryId ? await categoryFields(db, f.categoryId) : [];
  const values = (await valuesRepo.storedValues(db, [id])).get(id) ?? [];
  const byField = new Map(values.map((v) => [v.fieldId, v]));
  const numbers = new Map(f.versions.map((v) => [v.id, v.number]));
  const current = f.versions.find((v) => v.id === f.currentVersionId) ?? f.versions[0];
  const now = options.now ?? new Date();
  return {
    id: f.id,
    name: f.name,
    folder_id: f.categoryId,
    folder_name: f.category?.name ?? null,
    index_status: f.indexStatus,
    incremental: incrementalText(f.category?.incrementalPrefix, f.incrementalValue),
    incremental_value: f.incrementalValue,
    owner: toPerson(f.owner),
    mime_type: current?.mimeType ?? 'application/octet-stream',
    size: Number(current?.size ?? 0),
    version: current?.number ?? 0,
    current_version_id: current?.id ?? 0,
    preview: previewKind(current?.mimeType ?? ''),
    locked_by: f.lockedBy ? toPerson(f.lockedBy) : null,
    locked_at: f.lockedAt?.toISOString() ?? null,
    checked_out_by: f.checkedOutBy ? toPerson(f.checkedOutBy) : null,
    checked_out_at: f.checkedOutAt?.toISOString() ?? null,
    created_at: f.createdAt.toISOString(),
    updated_at: f.updatedAt.toISOString(),
    values: fields.map((field) => showValue(field, byField.get(field.fieldId))),
    versions: f.versions.map((v) => toVersion(v, f.currentVersionId, numbers)),
    followers: f.followers.map((x) => toPerson(x.user)),
    is_following: f.followers.some((x) => x.userId === auth.userId),
    is_favourite: await repo.isFavourite(db, id, auth.userId),
    comments: f.comments.map((c) => ({
      id: c.id,
      author: toPerson(c.author),
      comment: c.body,
      created_at: c.createdAt.toISOString(),
    })),
    other_files: f.attachments.map(toAttachment),
    permissions: rights,
    has_own_permissions: f.hasOwnPermissions,
    links: rights.share
      ? f.shares.map((s) => ({
          id: s.id,
          created_by: toPerson(s.createdBy),
          expires_at: s.expiresAt?.toISOString() ?? null,
          has_password: s.passwordHash !== null,
          revoked_at: s.revokedAt?.toISOString() ?? null,
          download_count: s.downloadCount,
          last_used_at: s.lastUsedAt?.toISOString() ?? null,
          created_at: s.createdAt.toISOString(),
          live: s.revokedAt === null && (s.expiresAt === null || s.expiresAt > now),
        }))
      : [],
  };
}

// ---------------------------------------------------------------------------------------------
// Guards for versions and attachments: the rights of their file

/** Registers the `version` and `attachment` object guards (lib/object-guards.ts). */
export function registerFileGuards(deps: Pick<Deps, 'db' | 'objectGuards'>) {
  for (const kind of ['version', 'attachment'] as const) {
    deps.objectGuards.register(kind, async (auth, ids, right) => {
      const fileOf = await repo.fileIdsOf(deps.db, kind, ids);
      if (ids.some((id) => !fileOf.has(id))) return 'hidden';
      return fileVerdict(deps.db, scopeOf(auth), [...new Set(fileOf.values())], asFileRight(right));
    });
  }
}

// ---------------------------------------------------------------------------------------------
// Uploads

export interface StoredUpload {
  blobId: string;
  size: number;
  mimeType: string;
  /** The client's name, sanitised for display. */
  name: string;
}

/**
 * Streams one uploaded file into the blob store, its type read from its first bytes (never
 * its name or claimed type). Nothing is kept when the stream fails (too large, cut off) or
 * the call is refused (its `admission`: lib/admission.ts).
 */
export async function storeUpload(
  deps: Deps,
  file: Pick<UploadedFile, 'filename' | 'stream' | 'admission'>,
  maxBytes?: number,
): Promise<StoredUpload> {
  let mimeType = 'application/octet-stream';
  const stored = await deps.blobs.put(file.admission?.stream ?? file.stream, {
    ...(maxBytes ? { maxBytes } : {}),
    ...(file.admission ? { admit: file.admission.admitted } : {}),
    inspectBytes: SNIFF_BYTES,
    inspect: async (head) => {
      mimeType = await detectType(head);
    },
  });
  return { blobId: stored.id, size: stored.size, mimeType, name: displayName(file.filename) };
}

/** Checks before a byte of an upload is read: the file can take a change from this caller. */
export async function assertCanChange(deps: Deps, auth: AuthContext, fileId: number) {
  const [file] = await repo.lockFiles(deps.db, [fileId]);
  if (!file) throw fileNotFound();
  await assertMayChange(deps.db, auth, [file]);
}

/** Deletes a file row and its dependants (versions, values, grants, links, comments, …). */
export function purgeRow(tx: Tx, fileId: number) {
  return purgeRows(tx, [fileId]);
}

/** Deletes many file rows and their dependants at once (see `purgeRow`). */
export async function purgeRows(tx: Tx, fileIds: number[]) {
  if (fileIds.length) await repo.deleteFileRows(tx, fileIds);
}

export async function incrementalValue(deps: Deps, categoryId: number) {
  const c = await repo.liveCategory(deps.db, categoryId);
  if (!c) throw categoryNotFound();
  return {
    folder_id: c.id,
    next_value: c.nextIncremental,
    prefix: c.incrementalPrefix,
    display: `${c.incrementalPrefix}${c.nextIncremental}`,
  };
}

// ---------------------------------------------------------------------------------------------
// Versions

/** Adds a version (a new upload, or an older version's content) and makes it current. */
export async function addVersion(
  tx: Tx,
  auth: AuthContext,
  fileId: number,
  content: { blobId: string; size: number; mimeType: string; name: string },
  options: { comment?: string; rolledBackFromId?: number } = {},
) {
  await repo.upsertBlob(tx, { id: content.blobId, size: content.size, mimeType: content.mimeType });
  const version = await repo.createVersion(tx, {
    fileId,
    number: await repo.nextVersionNumber(tx, fileId),
    blobId: content.blobId,
    originalName: content.name,
    mimeType: content.mimeType,
    size: BigInt(content.size),
    authorId: auth.userId,
    comment: options.comment ?? '',
    rolledBackFromId: options.rolledBackFromId ?? null,
  });
  await repo.updateFile(tx, fileId, { currentVersionId: version.id });
  return version;
}

/** Summaries of files `ids`, in that order (any state: lists of other areas shape rows here). */
export async function summariesOf(db: Tx, ids: number[]) {
  return (await listsRepo.summaries(db, ids)).map((r) => ({ row: r, summary: toSummary(r) }));
}

/** A version's content, checked to be in the store. */
export async function versionContent(
  deps: Deps,
  version: { blobId: string; size: bigint; mimeType: string },
) {
  if (!(await deps.blobs.exists(version.blobId))) throw contentMissing();
  return { blobId: version.blobId, size: Number(version.size), mimeType: version.mimeType };
}

/** Takes `n` running numbers of a live category under its row lock; null when it is gone. */
export function takeNumbers(tx: Tx, categoryId: number, n: number) {
  return repo.takeIncrementals(tx, categoryId, n);
}

/** A live category's id, name and numbering, or null. */
export function liveCategoryOf(tx: Tx, id: number) {
  return repo.liveCategory(tx, id);
}
