import { Prisma } from '@quire/db';
import type { Tx } from '../../lib/deps.js';

// The files area's queries: files, versions, grants, shares, attachments, comments, follows
// and favourites. The lists are file-lists.repository.ts, the metadata values
// file-values.repository.ts. Lists filter in SQL (lib/visibility.ts), never after the query.

// ---------------------------------------------------------------------------------------------
// Categories (their fields are the category area's: categoryFields in category.service.ts)

export function liveCategory(tx: Tx, id: number) {
  return tx.category.findFirst({
    where: { id, deletedAt: null },
    select: { id: true, name: true, incrementalPrefix: true, nextIncremental: true },
  });
}

/**
 * Takes `n` running numbers of a live category under its row lock (two uploads never share
 * one); null when the category is gone.
 */
export async function takeIncrementals(tx: Tx, categoryId: number, n: number): Promise<number | null> {
  const rows = await tx.$queryRaw<Array<{ first: number }>>`
    UPDATE categories SET next_incremental = next_incremental + ${n}::int
     WHERE id = ${categoryId}::int AND deleted_at IS NULL
    RETURNING next_incremental - ${n}::int AS first`;
  return rows[0]?.first ?? null;
}

/**
 * Gives files `fileIds` (in that order) the next running numbers of category `categoryId`, in
 * one statement: the category's row stays locked from here to the commit. False when the
 * category is gone.
 */
export async function numberFiles(tx: Tx, categoryId: number, fileIds: number[]): Promise<boolean> {
  const first = await takeIncrementals(tx, categoryId, fileIds.length);
  if (first === null) return false;
  await tx.$executeRaw`
    UPDATE files f SET incremental_value = ${first}::int + n.ord::int - 1
      FROM unnest(${fileIds}::int[]) WITH ORDINALITY AS n(id, ord)
     WHERE f.id = n.id`;
  return true;
}

// ---------------------------------------------------------------------------------------------
// One file

/** A file and what its page shows. */
export function findFileDetail(tx: Tx, id: number, options: { trashed?: boolean } = {}) {
  const person = { select: { id: true, username: true, firstName: true, lastName: true } };
  return tx.file.findFirst({
    where: { id, deletedAt: options.trashed ? { not: null } : null },
    include: {
      category: { select: { id: true, name: true, incrementalPrefix: true, deletedAt: true } },
      owner: person,
      lockedBy: person,
      checkedOutBy: person,
      versions: { orderBy: { number: 'desc' }, include: { author: person } },
      comments: { where: { deletedAt: null }, orderBy: { createdAt: 'asc' }, include: { author: person } },
      attachments: { orderBy: [{ createdAt: 'asc' }, { id: 'asc' }], include: { uploadedBy: person } },
      followers: { orderBy: { createdAt: 'asc' }, include: { user: person } },
      shares: { orderBy: { createdAt: 'desc' }, include: { createdBy: person } },
    },
  });
}
export type FileDetailRow = NonNullable<Awaited<ReturnType<typeof findFileDetail>>>;

export async function isFavourite(tx: Tx, fileId: number, userId: number) {
  return (await tx.fileFavourite.count({ where: { fileId, userId } })) > 0;
}

export interface LockedFile {
  id: number;
  name: string;
  category_id: number | null;
  owner_id: number;
  index_status: 'unindexed' | 'indexed';
  incremental_value: number | null;
  current_version_id: number | null;
  locked_by_id: number | null;
  checked_out_by_id: number | null;
  has_own_permissions: boolean;
  deleted_at: Date | null;
  lock_holder_name: string | null;
  checkout_holder_name: string | null;
}

/** The live files of categories `categoryIds`, by id. */
export async function liveFileIdsIn(tx: Tx, categoryIds: number[]): Promise<number[]> {
  const rows = await tx.file.findMany({
    where: { categoryId: { in: categoryIds }, deletedAt: null },
    select: { id: true },
    orderBy: { id: 'asc' },
  });
  return rows.map((r) => r.id);
}

/** Files `ids` with their row locks taken (for the rest of the transaction), in id order. */
export function lockFiles(tx: Tx, ids: number[], options: { trashed?: boolean } = {}) {
  const state = options.trashed ? Prisma.sql`f.deleted_at IS NOT NULL` : Prisma.sql`f.deleted_at IS NULL`;
  return tx.$queryRaw<LockedFile[]>`
    SELECT f.id, f.name, f.category_id, f.owner_id, f.index_status::text AS index_status,
           f.incremental_value, f.current_version_id, f.locked_by_id, f.checked_out_by_id,
           f.has_own_permissions, f.deleted_at,
           (SELECT coalesce(nullif(trim(u.first_name || ' ' || u.last_name), ''), u.username) FROM users u WHERE u.id = f.locked_by_id) AS lock_holder_name,
           (SELECT coalesce(nullif(trim(u.first_name || ' ' || u.last_name), ''), u.username) FROM users u WHERE u.id = f.checked_out_by_id) AS checkout_holder_name
      FROM files f
     WHERE f.id = ANY(${ids}::int[]) AND ${state}
     ORDER BY f.id
       FOR UPDATE OF f`;
}

export function updateFile(tx: Tx, id: number, data: Prisma.FileUncheckedUpdateInput) {
  return tx.file.update({ where: { id }, data });
}

/**
 * Records stored content in `blobs`. One statement that never locks an existing row (ON
 * CONFLICT DO NOTHING): uploads of the same content do not queue on it, except behind the
 * one transaction that is inserting it.
 */
export function upsertBlob(tx: Tx, blob: { id: string; size: number; mimeType: string }) {
  return tx.$executeRaw`
    INSERT INTO blobs (id, size, mime_type) VALUES (${blob.id}, ${BigInt(blob.size)}, ${blob.mimeType})
    ON CONFLICT (id) DO NOTHING`;
}

export function createFile(tx: Tx, data: Prisma.FileUncheckedCreateInput) {
  return tx.file.create({ data, select: { id: true } });
}

export async function nextVersionNumber(tx: Tx, fileId: number): Promise<number> {
  const top = await tx.fileVersion.aggregate({ where: { fileId }, _max: { number: true } });
  return (top._max.number ?? 0) + 1;
}

export function createVersion(tx: Tx, data: Prisma.FileVersionUncheckedCreateInput) {
  return tx.fileVersion.create({ data });
}

export function findVersion(tx: Tx, id: number) {
  return tx.fileVersion.findUnique({ where: { id } });
}

/** The file of each version or attachment id, for live files only. */
export async function fileIdsOf(tx: Tx, kind: 'version' | 'attachment', ids: number[]) {
  const rows =
    kind === 'version'
      ? await tx.fileVersion.findMany({
          where: { id: { in: ids }, file: { deletedAt: null } },
          select: { id: true, fileId: true },
        })
      : await tx.attachment.findMany({
          where: { id: { in: ids }, file: { deletedAt: null } },
          select: { id: true, fileId: true },
        });
  return new Map(rows.map((r) => [r.id, r.fileId]));
}

// ---------------------------------------------------------------------------------------------
// Users

export async function activeUserIds(tx: Tx, ids: number[]) {
  const rows = await tx.user.findMany({
    where: { id: { in: ids.filter((id) => id > 0 && id < 2 ** 31) }, status: 'active' },
    select: { id: true },
  });
  return new Set(rows.map((r) => r.id));
}

// ---------------------------------------------------------------------------------------------
// Grants and shares

export async function hasOwnPermissions(tx: Tx, fileId: number): Promise<boolean> {
  const f = await tx.file.findUniqueOrThrow({ where: { id: fileId }, select: { hasOwnPermissions: true } });
  return f.hasOwnPermissions;
}

export function fileGrants(tx: Tx, fileId: number) {
  return tx.filePermission.findMany({
    where: { fileId },
    orderBy: { id: 'asc' },
    include: {
      user: { select: { id: true, username: true, firstName: true, lastName: true } },
      group: { select: { id: true, name: true } },
    },
  });
}

export async function replaceGrants(
  tx: Tx,
  fileId: number,
  grants: Array<Omit<Prisma.FilePermissionUncheckedCreateInput, 'fileId'>>,
) {
  await tx.filePermission.deleteMany({ where: { fileId } });
  if (grants.length) await tx.filePermission.createMany({ data: grants.map((g) => ({ ...g, fileId })) });
}

/** Adds rights to users' or groups' grants on a file (never removes one). */
export async function addGrant(
  tx: Tx,
  fileId: number,
  who: { userId: number } | { groupId: number },
  rights: { canDownload: boolean; canEdit: boolean },
  grantedById: number,
) {
  const where =
    'userId' in who
      ? { fileId_userId: { fileId, userId: who.userId } }
      : { fileId_groupId: { fileId, groupId: who.groupId } };
  const existing = await tx.filePermission.findUnique({ where });
  if (existing) {
    await tx.filePermission.update({
      where: { id: existing.id },
      data: {
        canView: true,
        canDownload: existing.canDownload || rights.canDownload,
        canEdit: existing.canEdit || rights.canEdit,
      },
    });
    return;
  }
  await tx.filePermission.create({
    data: { fileId, ...who, canView: true, ...rights, grantedById },
  });
}

export async function existingGroupIds(tx: Tx, ids: number[]) {
  const rows = await tx.group.findMany({ where: { id: { in: ids } }, select: { id: true } });
  return new Set(rows.map((r) => r.id));
}

/** Active users: those named, and the members of the groups named. */
export function usersToTell(tx: Tx, userIds: number[], groupIds: number[]) {
  return tx.user.findMany({
    where: {
      status: 'active',
      OR: [{ id: { in: userIds } }, { memberships: { some: { groupId: { in: groupIds } } } }],
    },
    select: { id: true, username: true, firstName: true, lastName: true, email: true },
    orderBy: { id: 'asc' },
  });
}

export function createShare(tx: Tx, data: Prisma.ShareUncheckedCreateInput) {
  return tx.share.create({ data });
}

/** Of links `ids`, those of file `fileId` not revoked yet. */
export function liveSharesAmong(tx: Tx, fileId: number, ids: string[]) {
  return tx.share.findMany({
    where: { fileId, id: { in: ids }, revokedAt: null },
    select: { id: true },
  });
}

export function revokeShares(tx: Tx, fileId: number, ids: string[], at: Date) {
  return tx.share.updateMany({
    where: { fileId, id: { in: ids }, revokedAt: null },
    data: { revokedAt: at },
  });
}

export function shareByTokenHash(tx: Tx, tokenHash: string) {
  return tx.share.findUnique({
    where: { tokenHash },
    include: {
      file: { select: { id: true, name: true, deletedAt: true, currentVersionId: true } },
      createdBy: { select: { id: true, accessType: true, status: true, deletedAt: true } },
    },
  });
}

export function countShareDownload(tx: Tx, id: string, at: Date) {
  return tx.share.update({ where: { id }, data: { downloadCount: { increment: 1 }, lastUsedAt: at } });
}

export function touchShare(tx: Tx, id: string, at: Date) {
  return tx.share.update({ where: { id }, data: { lastUsedAt: at } });
}

// ---------------------------------------------------------------------------------------------
// Attachments, views

export function createAttachment(tx: Tx, data: Prisma.AttachmentUncheckedCreateInput) {
  return tx.attachment.create({
    data,
    include: { uploadedBy: { select: { id: true, username: true, firstName: true, lastName: true } } },
  });
}

export function findAttachments(tx: Tx, ids: number[]) {
  return tx.attachment.findMany({ where: { id: { in: ids } } });
}

export async function recordView(tx: Tx, userId: number, fileId: number, at: Date, preview: boolean) {
  await tx.fileView.upsert({
    where: { userId_fileId: { userId, fileId } },
    create: { userId, fileId, lastViewedAt: at, lastPreviewedAt: preview ? at : null },
    update: preview ? { lastPreviewedAt: at } : { lastViewedAt: at, viewCount: { increment: 1 } },
  });
}

export function deleteFileRow(tx: Tx, id: number) {
  return tx.$executeRaw`DELETE FROM files WHERE id = ${id}::int`;
}
