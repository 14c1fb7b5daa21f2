import {
  type AccessType,
  type Db,
  type LoginRole,
  Prisma,
  type UserStatus,
  type UserTokenPurpose,
} from '@quire/db';
import type { Tx } from '../../lib/deps.js';
import { queryRows } from '../../lib/sql.js';

// The queries behind accounts' credentials: looking users up, their password, their sessions,
// their e-mailed link tokens, and the failed attempts read back from the audit trail. The one
// place these tables are written from (auth and user call account's services).

// ---- users -----------------------------------------------------------------------------------

export function findUser(db: Tx, id: number) {
  return db.user.findUnique({ where: { id } });
}

export function findUserWithCompany(db: Tx, id: number) {
  return db.user.findUnique({
    where: { id },
    include: { company: { select: { id: true, twoFactorRequired: true } } },
  });
}

/** Sign-in takes a username or an e-mail: with "@" it is an e-mail (usernames have none). */
export function findUserByLogin(db: Tx, login: string) {
  const value = login.trim().toLowerCase();
  return db.user.findFirst({
    where: value.includes('@') ? { email: value } : { username: value },
    include: { company: { select: { id: true, twoFactorRequired: true } } },
  });
}

export function findUserByEmail(db: Tx, email: string) {
  return db.user.findUnique({ where: { email: email.trim().toLowerCase() } });
}

export function findUserByUsername(db: Tx, username: string) {
  return db.user.findUnique({ where: { username: username.trim().toLowerCase() } });
}

export function setPasswordHash(tx: Tx, userId: number, passwordHash: string, at: Date) {
  return tx.user.update({ where: { id: userId }, data: { passwordHash, passwordChangedAt: at } });
}

// ---- sessions --------------------------------------------------------------------------------

export function createSession(
  tx: Tx,
  data: {
    tokenHash: string;
    userId: number;
    loginRole: 'admin' | 'user';
    expiresAt: Date;
    ip?: string;
    userAgent?: string;
  },
) {
  return tx.session.create({ data });
}

interface SessionRow {
  id: string;
  userId: number;
  loginRole: LoginRole;
  twoFactorVerified: boolean;
  createdAt: Date;
  lastSeenAt: Date;
  expiresAt: Date;
  revokedAt: Date | null;
  username: string;
  accessType: AccessType;
  status: UserStatus;
  twoFactorEnabled: boolean;
  companyTwoFactorRequired: boolean;
}

/**
 * A session by its token's hash, with its user and the company's 2FA flag, in one statement.
 * Read on every signed-in request: a prepared statement on the pool (named, so each
 * connection parses it once) rather than a Prisma query, whose building costs more than the
 * lookup itself (`pnpm bench:http` serves this same statement from a bare server).
 */
export function sessionByTokenHashSql(tokenHash: string) {
  return Prisma.sql`
    SELECT s.id, s.user_id AS "userId", s.login_role::text AS "loginRole",
           s.two_factor_verified AS "twoFactorVerified", s.created_at AS "createdAt",
           s.last_seen_at AS "lastSeenAt", s.expires_at AS "expiresAt", s.revoked_at AS "revokedAt",
           u.username, u.access_type::text AS "accessType", u.status::text AS status,
           u.two_factor_enabled AS "twoFactorEnabled", c.two_factor_required AS "companyTwoFactorRequired"
      FROM sessions s
      JOIN users u ON u.id = s.user_id
      JOIN companies c ON c.id = u.company_id
     WHERE s.token_hash = ${tokenHash}`;
}

export async function findSessionByTokenHash(db: Db, tokenHash: string): Promise<SessionRow | null> {
  const [row] = await queryRows<SessionRow>(
    db,
    sessionByTokenHashSql(tokenHash),
    'quire_session_by_token_hash',
  );
  return row ?? null;
}

export function touchSession(db: Tx, id: string, at: Date, expiresAt: Date) {
  return db.session.update({ where: { id }, data: { lastSeenAt: at, expiresAt } });
}

/** Ends one session; 0 rows when it had ended already. */
export function revokeSession(tx: Tx, sessionId: string, at: Date) {
  return tx.session.updateMany({ where: { id: sessionId, revokedAt: null }, data: { revokedAt: at } });
}

/** Ends every live session of a user, except `keepSessionId` when given. */
export function revokeUserSessions(tx: Tx, userId: number, at: Date, keepSessionId?: string) {
  return tx.session.updateMany({
    where: { userId, revokedAt: null, ...(keepSessionId ? { id: { not: keepSessionId } } : {}) },
    data: { revokedAt: at },
  });
}

export function markSessionTwoFactorVerified(tx: Tx, sessionId: string) {
  return tx.session.update({ where: { id: sessionId }, data: { twoFactorVerified: true } });
}

/** Sessions not revoked, not expired, of active users, begun after `createdAfter`. */
export function listLiveSessions(db: Tx, now: Date, createdAfter: Date) {
  return db.session.findMany({
    where: {
      revokedAt: null,
      expiresAt: { gt: now },
      createdAt: { gt: createdAfter },
      user: { status: 'active' },
    },
    include: { user: true },
    orderBy: [{ lastSeenAt: 'desc' }, { createdAt: 'desc' }],
    take: 1000,
  });
}

export function findSession(db: Tx, id: string) {
  return db.session.findUnique({ where: { id }, include: { user: true } });
}

// ---- e-mailed link tokens --------------------------------------------------------------------

export type TokenPurpose = UserTokenPurpose;

export function createUserToken(
  tx: Tx,
  data: { userId: number; purpose: TokenPurpose; tokenHash: string; expiresAt: Date },
) {
  return tx.userToken.create({ data });
}

export function findUserTokenByHash(db: Tx, purpose: TokenPurpose, tokenHash: string) {
  return db.userToken.findFirst({ where: { tokenHash, purpose }, include: { user: true } });
}

/** Spends a token; 0 rows when it was spent meanwhile. */
export function spendUserToken(tx: Tx, id: number, at: Date) {
  return tx.userToken.updateMany({ where: { id, usedAt: null }, data: { usedAt: at } });
}

/** Spends every unused token of one purpose of a user. */
export function spendUserTokens(tx: Tx, userId: number, purpose: TokenPurpose, at: Date) {
  return tx.userToken.updateMany({ where: { userId, purpose, usedAt: null }, data: { usedAt: at } });
}

export function createUserTokens(
  tx: Tx,
  data: Array<{ userId: number; purpose: TokenPurpose; tokenHash: string; expiresAt: Date }>,
) {
  return tx.userToken.createMany({ data });
}

/** Spends the user's unspent token of `purpose` with this hash; 0 rows when there is none. */
export function spendUserTokenByHash(
  tx: Tx,
  userId: number,
  purpose: TokenPurpose,
  tokenHash: string,
  at: Date,
) {
  return tx.userToken.updateMany({
    where: { userId, purpose, tokenHash, usedAt: null },
    data: { usedAt: at },
  });
}

/** Deletes a user's tokens of one purpose (spent ones included): recovery codes replaced. */
export function deleteUserTokens(tx: Tx, userId: number, purpose: TokenPurpose) {
  return tx.userToken.deleteMany({ where: { userId, purpose } });
}

/** Tokens of one purpose of a user not spent yet (expired ones included). */
export function countUnspentUserTokens(db: Tx, userId: number, purpose: TokenPurpose) {
  return db.userToken.count({ where: { userId, purpose, usedAt: null } });
}

// ---- failed attempts (read back from the audit trail) ----------------------------------------

/** Audit actions of a refused password: a failed sign-in, a wrong current password. */
const FAILURE_ACTIONS = ['access.unauthenticated', 'password.check_failed'];

/** Refused passwords naming any of `logins` since `since`: how many, and the newest one's time. */
export async function accountFailures(db: Tx, logins: string[], since: Date) {
  const [row] = await db.$queryRaw<Array<{ count: bigint; last_at: Date | null }>>`
    SELECT count(*) AS count, max(created_at) AS last_at FROM audit_events
    WHERE action = ANY(${FAILURE_ACTIONS}) AND created_at >= ${since}
      AND details->>'username' = ANY(${logins})`;
  return { count: Number(row?.count ?? 0), lastAt: row?.last_at ?? null };
}

/** Refused passwords from one address since `since`, whatever account they named. */
export async function sourceFailures(db: Tx, ip: string, since: Date) {
  const [row] = await db.$queryRaw<Array<{ count: bigint }>>`
    SELECT count(*) AS count FROM audit_events
    WHERE action = ANY(${FAILURE_ACTIONS}) AND created_at >= ${since} AND ip = ${ip}
      AND details ? 'username'`;
  return Number(row?.count ?? 0);
}

/** The newest of `actions` recorded on a user since `since` (events that clear the failures). */
export async function lastEventOn(db: Tx, userId: number, actions: string[], since: Date) {
  const row = await db.auditEvent.findFirst({
    where: {
      targetType: 'user',
      targetId: String(userId),
      action: { in: actions },
      createdAt: { gte: since },
    },
    orderBy: { createdAt: 'desc' },
    select: { createdAt: true },
  });
  return row?.createdAt ?? null;
}
