import { Prisma } from '@quire/db';
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

/**
 * Adds rights to users' and groups' grants on a file (never removes one), one statement for the
 * users and one for the groups: a grant they lack is made (view and `rights`, by `grantedById`),
 * one they have gains `rights` and view. Ids without repeats; rows are written in their order.
 */
export async function addGrants(
  tx: Tx,
  fileId: number,
  who: { userIds: number[]; groupIds: number[] },
  rights: { canDownload: boolean; canEdit: boolean },
  grantedById: number,
) {
  const at = new Date().toISOString();
  for (const [column, ids] of [
    ['user_id', who.userIds],
    ['group_id', who.groupIds],
  ] as const) {
    if (!ids.length) continue;
    await tx.$executeRaw`
      INSERT INTO file_permissions (file_id, ${Prisma.raw(column)}, can_view, can_download, can_edit,
                                    granted_by_id, created_at, updated_at)
      SELECT ${fileId}::int, g.id, true, ${rights.canDownload}, ${rights.canEdit}, ${grantedById}::int,
             ${at}::timestamptz AT TIME ZONE 'UTC', ${at}::timestamptz AT TIME ZONE 'UTC'
        FROM unnest(${ids}::int[]) WITH ORDINALITY AS g(id, n)
       ORDER BY g.n
      ON CONFLICT (file_id, ${Prisma.raw(column)}) DO UPDATE
        SET can_view = true,
            can_download = file_permissions.can_download OR EXCLUDED.can_download,
            can_edit = file_permissions.can_edit OR EXCLUDED.can_edit,
            updated_at = EXCLUDED.updated_at`;
  }
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
