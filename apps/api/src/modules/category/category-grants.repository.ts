import type { Tx } from '../../lib/deps.js';

// A category's grants (its own and those of its category groups) and the people they name:
// the grants read and replaced, the users and groups a grant may name, the pickers' lists.

export const grantee = {
  user: { select: { id: true, username: true, firstName: true, lastName: true } },
  group: { select: { id: true, name: true } },
} as const;

export function grantsOn(db: Tx, categoryIds: number[]) {
  return db.categoryPermission.findMany({
    where: { categoryId: { in: categoryIds } },
    include: grantee,
    orderBy: { id: 'asc' },
  });
}

/** The grants of every category group holding one of these categories, with the member ids. */
export function groupGrantsOn(db: Tx, categoryIds: number[]) {
  return db.categoryGroupMember.findMany({
    where: { categoryId: { in: categoryIds } },
    include: {
      categoryGroup: {
        select: {
          id: true,
          name: true,
          permissions: { include: grantee, orderBy: { id: 'asc' } },
        },
      },
    },
  });
}

export type GrantData = {
  userId: number | null;
  groupId: number | null;
  canView: boolean;
  canUpload: boolean;
  canEdit: boolean;
  canDelete: boolean;
  canShare: boolean;
  canManage: boolean;
};

export async function replaceGrants(tx: Tx, categoryId: number, grants: GrantData[], by: number | null) {
  await tx.categoryPermission.deleteMany({ where: { categoryId } });
  if (grants.length)
    await tx.categoryPermission.createMany({
      data: grants.map((g) => ({ ...g, categoryId, grantedById: by })),
    });
}

export async function usersNotDeleted(db: Tx, ids: number[]): Promise<Set<number>> {
  if (!ids.length) return new Set();
  const rows = await db.user.findMany({
    where: { id: { in: ids }, status: { not: 'deleted' } },
    select: { id: true },
  });
  return new Set(rows.map((r) => r.id));
}

export async function groupIds(db: Tx, ids: number[]): Promise<Set<number>> {
  if (!ids.length) return new Set();
  const rows = await db.group.findMany({ where: { id: { in: ids } }, select: { id: true } });
  return new Set(rows.map((r) => r.id));
}

export function granteeUsers(db: Tx) {
  return db.user.findMany({
    where: { status: 'active', accessType: { not: 'VENDOR_ADMIN' } },
    select: { id: true, username: true, firstName: true, lastName: true },
    orderBy: [{ firstName: 'asc' }, { lastName: 'asc' }, { username: 'asc' }],
  });
}

export function granteeGroups(db: Tx) {
  return db.group.findMany({ select: { id: true, name: true }, orderBy: [{ name: 'asc' }, { id: 'asc' }] });
}
