import type { Tx } from '../../lib/deps.js';
import { lockRow, shareRows } from '../../lib/locks.js';
import { sameName } from '../../lib/names.js';

const withMembers = {
  members: {
    where: { user: { status: { not: 'deleted' as const } } },
    select: { user: { select: { id: true, username: true, firstName: true, lastName: true } } },
  },
};

export function listGroups(db: Tx) {
  return db.group.findMany({ orderBy: [{ name: 'asc' }, { id: 'asc' }], include: withMembers });
}

/** Locks the group's row: two edits of one group run one after the other. */
export function lockGroup(tx: Tx, id: number): Promise<boolean> {
  return lockRow(tx, 'groups', id);
}

/**
 * Shares the rows of these people, after the group's own row is locked (a group being made is
 * seen by no one yet): the order lib/locks.ts shareRows gives memberships. An edit of one of
 * them runs before or after this one, never alongside; a deletion of one waits, or is seen.
 */
export async function sharePeople(tx: Tx, userIds: number[]): Promise<void> {
  await shareRows(tx, 'users', userIds);
}

/** The ids of a group's members (deleted ones included). */
export async function memberIds(db: Tx, groupId: number): Promise<number[]> {
  const rows = await db.groupMember.findMany({ where: { groupId }, select: { userId: true } });
  return rows.map((r) => r.userId);
}

export function findGroup(db: Tx, id: number) {
  return db.group.findUnique({ where: { id }, include: withMembers });
}

/** A group of this name in any letter case, other than `exceptId`. */
export function findGroupByName(db: Tx, name: string, exceptId?: number) {
  return db.group.findFirst({
    where: sameName(name, exceptId),
    select: { id: true },
  });
}

/** The users of these ids that are not deleted, with their access types. */
export function usersByIds(db: Tx, ids: number[]) {
  if (!ids.length) return Promise.resolve([]);
  return db.user.findMany({
    where: { id: { in: ids }, status: { not: 'deleted' } },
    select: { id: true, accessType: true },
  });
}

/**
 * A group as an edit of it starts from: its name, description and members, deleted ones
 * included (they stay members) with their status, each with their access type.
 */
export function groupToEdit(db: Tx, id: number) {
  return db.group.findUnique({
    where: { id },
    select: {
      name: true,
      description: true,
      members: { select: { user: { select: { id: true, accessType: true, status: true } } } },
    },
  });
}

export function createGroup(tx: Tx, data: { name: string; description: string }) {
  return tx.group.create({ data });
}

export function updateGroup(tx: Tx, id: number, data: { name?: string; description?: string }) {
  return tx.group.update({ where: { id }, data });
}

/** Rows per INSERT: two parameters each, far below the driver's 65,535. */
const INSERT_CHUNK = 5000;

export async function replaceMembers(tx: Tx, groupId: number, userIds: number[]) {
  await tx.groupMember.deleteMany({ where: { groupId } });
  for (let i = 0; i < userIds.length; i += INSERT_CHUNK) {
    const chunk = userIds.slice(i, i + INSERT_CHUNK);
    await tx.groupMember.createMany({ data: chunk.map((userId) => ({ groupId, userId })) });
  }
}

export function deleteGroup(tx: Tx, id: number) {
  return tx.group.delete({ where: { id } });
}
