import type { Prisma } from '@quire/db';
import type { Tx } from '../../lib/deps.js';

// A file's own grants and its public links (file-sharing.service.ts, public-link.service.ts):
// the grants replaced or added to, the users to tell of a share, the links made, revoked,
// found by their token's hash and counted.

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
