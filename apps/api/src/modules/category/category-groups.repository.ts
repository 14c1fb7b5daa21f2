import type { Tx } from '../../lib/deps.js';
import { lockRow } from '../../lib/locks.js';
import { sameName } from '../../lib/names.js';
import { categoryRightsTable, type Scope } from '../../lib/visibility.js';
import { type GrantData, grantee } from './category-grants.repository.js';

// The queries of category groups: the groups, their member categories and their grants.

export function listCategoryGroups(db: Tx, ids?: number[]) {
  return db.categoryGroup.findMany({
    where: ids ? { id: { in: ids } } : {},
    include: { permissions: { include: grantee, orderBy: { id: 'asc' } } },
    orderBy: [{ name: 'asc' }, { id: 'asc' }],
  });
}

/** The members of these groups that the scope may view, in each group's order. */
export async function visibleMembers(db: Tx, scope: Scope, groupIds: number[]) {
  if (!groupIds.length) return [];
  return db.$queryRaw<Array<{ group_id: number; id: number; name: string }>>`
    SELECT m.category_group_id AS group_id, c.id, c.name
      FROM category_group_members m
      JOIN categories c ON c.id = m.category_id
     WHERE m.category_group_id = ANY(${groupIds}::int[])
       AND c.id IN (SELECT category_id FROM (${categoryRightsTable(scope)}) r)
     ORDER BY m.position, c.id`;
}

/** Locks the category group's row: two edits of one group run one after the other. */
export function lockCategoryGroup(tx: Tx, id: number): Promise<boolean> {
  return lockRow(tx, 'category_groups', id);
}

export function findCategoryGroup(db: Tx, id: number) {
  return db.categoryGroup.findUnique({ where: { id }, include: { members: true, permissions: true } });
}

export function categoryGroupNamed(db: Tx, name: string, exceptId?: number) {
  return db.categoryGroup.findFirst({
    where: sameName(name, exceptId),
    select: { id: true },
  });
}

export function createCategoryGroup(
  tx: Tx,
  data: { name: string; description: string; createdById: number | null },
) {
  return tx.categoryGroup.create({ data });
}

export function updateCategoryGroup(tx: Tx, id: number, data: { name?: string; description?: string }) {
  return tx.categoryGroup.update({ where: { id }, data });
}

export function deleteCategoryGroup(tx: Tx, id: number) {
  return tx.categoryGroup.delete({ where: { id } });
}

export async function replaceMembers(tx: Tx, groupId: number, categoryIds: number[]) {
  await tx.categoryGroupMember.deleteMany({ where: { categoryGroupId: groupId } });
  if (categoryIds.length)
    await tx.categoryGroupMember.createMany({
      data: categoryIds.map((categoryId, position) => ({ categoryGroupId: groupId, categoryId, position })),
    });
}

export async function replaceGroupGrants(tx: Tx, groupId: number, grants: GrantData[], by: number | null) {
  await tx.categoryGroupPermission.deleteMany({ where: { categoryGroupId: groupId } });
  if (grants.length)
    await tx.categoryGroupPermission.createMany({
      data: grants.map((g) => ({ ...g, categoryGroupId: groupId, grantedById: by })),
    });
}
