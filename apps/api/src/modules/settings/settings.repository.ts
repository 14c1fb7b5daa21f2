import type { AccessType, Prisma } from '@quire/db';
import type { Tx } from '../../lib/deps.js';
import { lockFor, lockRow, shareRows } from '../../lib/locks.js';

const withMappings = {
  groupMappings: { include: { group: { select: { name: true } } }, orderBy: { id: 'asc' } },
  _count: { select: { users: true } },
} as const;

/** The directory connection (Quire keeps one). */
export function findProvider(db: Tx) {
  return db.authProvider.findFirst({ orderBy: { id: 'asc' }, include: withMappings });
}
export type ProviderRow = NonNullable<Awaited<ReturnType<typeof findProvider>>>;

export function findProviderById(db: Tx, id: number) {
  return db.authProvider.findUnique({ where: { id }, include: withMappings });
}

export function existingGroupIds(db: Tx, ids: number[]) {
  return db.group.findMany({ where: { id: { in: ids } }, select: { id: true, name: true } });
}

/**
 * Locks the directory connection's row for a save (lib/locks.ts lockRow): saves sent at once run
 * one after the other, each keeping the bind password and replacing the group mappings the last
 * one left. Before the first save there is no row to lock: first saves take turns on an
 * advisory lock, each then locking the row the one before it made. The connection as the last
 * save left it, or null when there is none yet.
 */
export async function lockProvider(tx: Tx): Promise<ProviderRow | null> {
  const locked = await lockFirstProvider(tx);
  if (locked) return locked;
  await lockFor(tx, 'directoryFirstSave');
  return lockFirstProvider(tx);
}

async function lockFirstProvider(tx: Tx): Promise<ProviderRow | null> {
  const first = await tx.authProvider.findFirst({ orderBy: { id: 'asc' }, select: { id: true } });
  if (!first || !(await lockRow(tx, 'auth_providers', first.id))) return null;
  return findProviderById(tx, first.id);
}

export interface Mapping {
  directoryGroup: string;
  groupId: number | null;
  accessType: AccessType | null;
}

export async function saveProvider(
  tx: Tx,
  id: number | null,
  data: Omit<Prisma.AuthProviderUncheckedCreateInput, 'id'>,
  mappings: Mapping[],
) {
  const row = id
    ? await tx.authProvider.update({ where: { id }, data })
    : await tx.authProvider.create({ data });
  await tx.authProviderGroup.deleteMany({ where: { providerId: row.id } });
  if (mappings.length)
    await tx.authProviderGroup.createMany({ data: mappings.map((m) => ({ ...m, providerId: row.id })) });
  return row.id;
}

/** Removes the connection; its accounts become local ones without a password. */
export async function deleteProvider(tx: Tx, id: number) {
  const detached = await tx.user.updateMany({
    where: { authProviderId: id },
    data: { authProviderId: null },
  });
  await tx.authProvider.delete({ where: { id } });
  return detached.count;
}

// Accounts of the directory. Users are the user area's; the directory sign-in creates and
// updates its own accounts here (it never touches local ones), in the sign-in's transaction.

export function findUserByLogin(db: Tx, login: string) {
  const value = login.trim().toLowerCase();
  return db.user.findFirst({
    where: { OR: [{ username: value }, { email: value }] },
    select: { id: true, username: true, email: true, authProviderId: true, status: true },
  });
}

export function findExternalUser(db: Tx, providerId: number, externalId: string) {
  return db.user.findUnique({
    where: { authProviderId_externalId: { authProviderId: providerId, externalId } },
    select: { id: true, username: true, status: true },
  });
}

export function takenBy(db: Tx, username: string, email: string) {
  return db.user.findFirst({
    where: { OR: [{ username }, { email }] },
    select: { id: true, authProviderId: true, externalId: true },
  });
}

export function companyId(db: Tx) {
  return db.company.findFirst({ select: { id: true }, orderBy: { id: 'asc' } });
}

export function createUser(tx: Tx, data: Prisma.UserUncheckedCreateInput) {
  return tx.user.create({ data, select: { id: true, username: true } });
}

/**
 * Shares the rows of the mapped groups until the transaction ends (lib/locks.ts shareRows): a
 * group edit or deletion runs before or after, never alongside. Before a sign-in changes a
 * person's memberships, in the order memberships take their locks in (groups, then people); in
 * a save of the connection, after its row (lockProvider). The ids of the groups that exist.
 */
export function shareGroups(tx: Tx, ids: number[]): Promise<Set<number>> {
  return shareRows(tx, 'groups', ids);
}

/** Locks a directory account's row and reads what a sign-in may change (null: gone). */
export async function lockAccount(tx: Tx, id: number) {
  if (!(await lockRow(tx, 'users', id))) return null;
  return tx.user.findUnique({
    where: { id },
    select: {
      username: true,
      status: true,
      email: true,
      firstName: true,
      lastName: true,
      accessType: true,
      loginRole: true,
      memberships: { select: { groupId: true } },
    },
  });
}

export function updateUser(tx: Tx, id: number, data: Prisma.UserUncheckedUpdateInput) {
  return tx.user.update({ where: { id }, data, select: { id: true, username: true } });
}

/** Sets the user's memberships among the mapped groups: adds `groupIds`, drops the other mapped ones. */
export async function syncMappedGroups(tx: Tx, userId: number, mappedGroupIds: number[], groupIds: number[]) {
  const drop = mappedGroupIds.filter((id) => !groupIds.includes(id));
  if (drop.length) await tx.groupMember.deleteMany({ where: { userId, groupId: { in: drop } } });
  if (groupIds.length)
    await tx.groupMember.createMany({
      data: groupIds.map((groupId) => ({ groupId, userId })),
      skipDuplicates: true,
    });
}
