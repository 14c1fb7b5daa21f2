import type { AccessType, LoginRole, Prisma, UserStatus } from '@quire/db';
import type { Tx } from '../../lib/deps.js';
import { pageWindow } from '../../lib/paging.js';

const withGroups = {
  memberships: {
    select: { group: { select: { id: true, name: true } } },
    orderBy: { group: { name: 'asc' } },
  },
} satisfies Prisma.UserInclude;

export type AdminUserRow = Prisma.UserGetPayload<{ include: typeof withGroups }>;

export function findUser(db: Tx, id: number) {
  return db.user.findUnique({ where: { id } });
}

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

export async function replaceGroups(tx: Tx, userId: number, groupIds: number[]) {
  await tx.groupMember.deleteMany({ where: { userId } });
  if (groupIds.length)
    await tx.groupMember.createMany({ data: groupIds.map((groupId) => ({ groupId, userId })) });
}

/** Signs a user out everywhere (but the session `exceptId`). */
export function revokeSessions(tx: Tx, userId: number, at: Date, exceptId?: string) {
  return tx.session.updateMany({
    where: { userId, revokedAt: null, ...(exceptId ? { id: { not: exceptId } } : {}) },
    data: { revokedAt: at },
  });
}

/** Spends the unused password-reset links of a user whose password an admin just set. */
export function spendResetTokens(tx: Tx, userId: number, at: Date) {
  return tx.userToken.updateMany({
    where: { userId, purpose: 'password_reset', usedAt: null },
    data: { usedAt: at },
  });
}

/** Spends the unused e-mail verification links of a user whose status an admin just set. */
export function spendVerificationTokens(tx: Tx, userId: number, at: Date) {
  return tx.userToken.updateMany({
    where: { userId, purpose: 'email_verification', usedAt: null },
    data: { usedAt: at },
  });
}

export function listUserOptions(db: Tx) {
  return db.user.findMany({
    where: { status: { not: 'deleted' } },
    orderBy: [{ firstName: 'asc' }, { lastName: 'asc' }, { username: 'asc' }],
  });
}

export function listLiveSessions(db: Tx, now: Date) {
  return db.session.findMany({
    where: { revokedAt: null, expiresAt: { gt: now }, user: { status: 'active' } },
    include: { user: true },
    orderBy: [{ lastSeenAt: 'desc' }, { createdAt: 'desc' }],
    take: 1000,
  });
}

export interface UserPageQuery {
  page: number;
  quantity: number;
  search?: string;
  status?: UserStatus;
  sort: 'newest' | 'name';
}

export async function pageUsers(db: Tx, q: UserPageQuery) {
  const words = (q.search ?? '').split(/\s+/).filter(Boolean);
  const where: Prisma.UserWhereInput = {
    status: q.status ?? { not: 'deleted' },
    AND: words.map((word) => ({
      OR: (['username', 'email', 'firstName', 'lastName'] as const).map((field) => ({
        [field]: { contains: word, mode: 'insensitive' as const },
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
