import type { TUsersQuery } from '@quire/contract';
import type { AccessType, LoginRole, Prisma, UserStatus } from '@quire/db';
import type { Tx } from '../../lib/deps.js';
import { pageWindow } from '../../lib/paging.js';
import { containsText } from '../../lib/search.js';

const withGroups = {
  memberships: {
    select: { group: { select: { id: true, name: true } } },
    orderBy: { group: { name: 'asc' } },
  },
} satisfies Prisma.UserInclude;

export type AdminUserRow = Prisma.UserGetPayload<{ include: typeof withGroups }>;

export function findAdminUser(db: Tx, id: number) {
  return db.user.findUnique({ where: { id }, include: withGroups });
}

export function findAdminUsers(db: Tx, ids: number[]) {
  return db.user.findMany({ where: { id: { in: ids } }, include: withGroups, orderBy: { id: 'asc' } });
}

/** Users (deleted ones too: their names stay reserved) holding any of these usernames or e-mails. */
export function findTaken(db: Tx, usernames: string[], emails: string[], exceptId?: number) {
  return db.user.findMany({
    where: {
      OR: [
        { username: { in: usernames, mode: 'insensitive' } },
        { email: { in: emails, mode: 'insensitive' } },
      ],
      ...(exceptId ? { id: { not: exceptId } } : {}),
    },
    select: { id: true, username: true, email: true },
  });
}

export async function existingGroupIds(db: Tx, ids: number[]): Promise<Set<number>> {
  if (!ids.length) return new Set();
  const rows = await db.group.findMany({ where: { id: { in: ids } }, select: { id: true } });
  return new Set(rows.map((r) => r.id));
}

export function companyId(db: Tx) {
  return db.company.findFirst({ select: { id: true }, orderBy: { id: 'asc' } });
}

export interface NewUserRow {
  companyId: number;
  username: string;
  email: string;
  firstName: string;
  lastName: string;
  loginRole: LoginRole;
  accessType: AccessType;
  passwordHash: string;
  createdById: number | null;
}

export function createUser(tx: Tx, data: NewUserRow) {
  return tx.user.create({ data });
}

export function updateUser(tx: Tx, id: number, data: Prisma.UserUncheckedUpdateInput) {
  return tx.user.update({ where: { id }, data });
}

/** Updates a user that is not deleted; 0 rows when it is (or was deleted meanwhile). */
export function updateUserUnlessDeleted(tx: Tx, id: number, data: Prisma.UserUncheckedUpdateInput) {
  return tx.user.updateMany({ where: { id, status: { not: 'deleted' } }, data });
}

/** Sets a user's status only from one of `from`; 0 rows when another change got there first. */
export function updateStatus(tx: Tx, id: number, from: UserStatus[], data: Prisma.UserUncheckedUpdateInput) {
  return tx.user.updateMany({ where: { id, status: { in: from } }, data });
}

export async function replaceGroups(tx: Tx, userId: number, groupIds: number[]) {
  await tx.groupMember.deleteMany({ where: { userId } });
  if (groupIds.length)
    await tx.groupMember.createMany({ data: groupIds.map((groupId) => ({ groupId, userId })) });
}

export function listUserOptions(db: Tx) {
  return db.user.findMany({
    where: { status: { not: 'deleted' } },
    orderBy: [{ firstName: 'asc' }, { lastName: 'asc' }, { username: 'asc' }],
  });
}

export async function pageUsers(db: Tx, q: TUsersQuery) {
  const words = (q.search ?? '').split(/\s+/).filter(Boolean);
  const where: Prisma.UserWhereInput = {
    status: q.status ?? { not: 'deleted' },
    AND: words.map((word) => ({
      OR: (['username', 'email', 'firstName', 'lastName'] as const).map((field) => ({
        [field]: containsText(word),
      })),
    })),
  };
  const orderBy: Prisma.UserOrderByWithRelationInput[] =
    q.sort === 'name'
      ? [{ firstName: 'asc' }, { lastName: 'asc' }, { username: 'asc' }, { id: 'asc' }]
      : [{ createdAt: 'desc' }, { id: 'desc' }];
  const [total, rows] = await Promise.all([
    db.user.count({ where }),
    // Page first, then one query for the page's groups: cheaper than joining every row.
    db.user.findMany({
      where,
      orderBy,
      include: withGroups,
      relationLoadStrategy: 'query',
      ...pageWindow(q),
    }),
  ]);
  return { total, rows };
}

export function findBlob(db: Tx, id: string) {
  return db.blob.findUnique({ where: { id } });
}

export function upsertBlob(tx: Tx, data: { id: string; size: number; mimeType: string }) {
  return tx.blob.upsert({
    where: { id: data.id },
    create: { id: data.id, size: BigInt(data.size), mimeType: data.mimeType },
    update: {},
  });
}
