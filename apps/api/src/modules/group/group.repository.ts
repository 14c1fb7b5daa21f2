import type { Tx } from '../../lib/deps.js';

const withMembers = {
  members: {
    where: { user: { status: { not: 'deleted' as const } } },
    select: { user: { select: { id: true, username: true, firstName: true, lastName: true } } },
  },
};

export function listGroups(db: Tx) {
  return db.group.findMany({ orderBy: [{ name: 'asc' }, { id: 'asc' }], include: withMembers });
}

export function findGroup(db: Tx, id: number) {
  return db.group.findUnique({ where: { id }, include: withMembers });
}

/** A group of this name in any letter case, other than `exceptId`. */
export function findGroupByName(db: Tx, name: string, exceptId?: number) {
  return db.group.findFirst({
    where: { name: { equals: name, mode: 'insensitive' }, ...(exceptId ? { id: { not: exceptId } } : {}) },
    select: { id: true },
  });
}

/** Which of these ids are users not deleted. */
export async function existingUserIds(db: Tx, ids: number[]): Promise<Set<number>> {
  const rows = await db.user.findMany({
    where: { id: { in: ids }, status: { not: 'deleted' } },
    select: { id: true },
  });
  return new Set(rows.map((r) => r.id));
}

export function createGroup(tx: Tx, data: { name: string; description: string }) {
  return tx.group.create({ data });
}

export function updateGroup(tx: Tx, id: number, data: { name?: string; description?: string }) {
  return tx.group.update({ where: { id }, data });
}

export async function replaceMembers(tx: Tx, groupId: number, userIds: number[]) {
  await tx.groupMember.deleteMany({ where: { groupId } });
  if (userIds.length)
    await tx.groupMember.createMany({ data: userIds.map((userId) => ({ groupId, userId })) });
}

export function deleteGroup(tx: Tx, id: number) {
  return tx.group.delete({ where: { id } });
}
