import type { TUsersQuery } from '@quire/contract';
import { type AccessType, type Db, type LoginRole, Prisma, type UserStatus } from '@quire/db';
import type { Tx } from '../../lib/deps.js';
import { lockRow, shareRows } from '../../lib/locks.js';
import { pageWindow } from '../../lib/paging.js';
import { likeEscaped } from '../../lib/search.js';
import { queryRows } from '../../lib/sql.js';
import type { UserDtoFields } from '../../lib/user-dto.js';

const withGroups = {
  memberships: {
    select: { group: { select: { id: true, name: true } } },
    orderBy: { group: { name: 'asc' } },
  },
} satisfies Prisma.UserInclude;

/** A user as the users screens show one: its fields, signature flag and groups. */
export type AdminUserRow = UserDtoFields &
  Pick<Prisma.UserGetPayload<object>, 'signatureBlobId' | 'deletedAt'> & {
    memberships: Array<{ group: { id: number; name: string } }>;
  };

/** Locks the user's row: two edits of one person run one after the other (false: no such user). */
export function lockUser(tx: Tx, id: number): Promise<boolean> {
  return lockRow(tx, 'users', id);
}

/**
 * Shares the rows of the groups a user edit names, before it locks the person's row (the order
 * lib/locks.ts shareRows gives memberships): an edit of one of those groups runs before or
 * after it, never alongside. The ids of the groups that exist.
 */
export function shareGroups(tx: Tx, ids: number[]): Promise<Set<number>> {
  return shareRows(tx, 'groups', ids);
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

interface NewUserRow {
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

/**
 * The two statements of a users page, run together: the count of the whole list, and the
 * page with each user's groups (a JSON aggregate per row of the page only). Written in SQL:
 * the list is read on every visit of the users screen; `pnpm bench:http` serves these same
 * statements from a bare server as its baseline.
 */
export function usersPageSql(q: TUsersQuery): { count: Prisma.Sql; page: Prisma.Sql } {
  const words = (q.search ?? '').split(/\s+/).filter(Boolean);
  const conditions = [
    q.status ? Prisma.sql`u.status = ${q.status}::"UserStatus"` : Prisma.sql`u.status <> 'deleted'`,
    ...words.map((word) => {
      const pattern = `%${likeEscaped(word)}%`;
      return Prisma.sql`(u.username ILIKE ${pattern} OR u.email ILIKE ${pattern} OR u.first_name ILIKE ${pattern} OR u.last_name ILIKE ${pattern})`;
    }),
  ];
  const where = Prisma.join(conditions, ' AND ');
  const orderBy =
    q.sort === 'name'
      ? Prisma.sql`u.first_name, u.last_name, u.username, u.id`
      : Prisma.sql`u.created_at DESC, u.id DESC`;
  const { skip, take } = pageWindow(q);
  return {
    count: Prisma.sql`SELECT count(*)::int AS total FROM users u WHERE ${where}`,
    page: Prisma.sql`
      SELECT u.id, u.username, u.email, u.first_name AS "firstName", u.last_name AS "lastName",
             u.login_role::text AS "loginRole", u.access_type::text AS "accessType", u.status::text AS status,
             u.two_factor_enabled AS "twoFactorEnabled", u.created_at AS "createdAt",
             u.signature_blob_id AS "signatureBlobId", u.deleted_at AS "deletedAt",
             coalesce((SELECT json_agg(json_build_object('id', g.id, 'name', g.name) ORDER BY g.name)
                         FROM group_members gm JOIN groups g ON g.id = gm.group_id
                        WHERE gm.user_id = u.id), '[]'::json) AS groups
        FROM users u
       WHERE ${where}
       ORDER BY ${orderBy}
       LIMIT ${take} OFFSET ${skip}`,
  };
}

export async function pageUsers(db: Db, q: TUsersQuery) {
  const sql = usersPageSql(q);
  const [count, page] = await Promise.all([
    queryRows<{ total: number }>(db, sql.count),
    queryRows<Omit<AdminUserRow, 'memberships'> & { groups: Array<{ id: number; name: string }> }>(
      db,
      sql.page,
    ),
  ]);
  return {
    total: count[0]?.total ?? 0,
    rows: page.map(({ groups, ...user }) => ({ ...user, memberships: groups.map((group) => ({ group })) })),
  };
}

export function findBlob(db: Tx, id: string) {
  return db.blob.findUnique({ where: { id } });
}
