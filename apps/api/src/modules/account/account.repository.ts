import type { Tx } from '../../lib/deps.js';

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

/** A session by its token's hash, with its user and the company's 2FA flag, in one query. */
export function findSessionByTokenHash(db: Tx, tokenHash: string) {
  return db.session.findUnique({
    where: { tokenHash },
    relationLoadStrategy: 'join',
    include: { user: { include: { company: { select: { twoFactorRequired: true } } } } },
  });
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

export type TokenPurpose = 'password_reset' | 'email_verification';

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

/** Tokens of one purpose of a user not spent yet (expired ones included). */
export function countUnspentUserTokens(db: Tx, userId: number, purpose: TokenPurpose) {
  return db.userToken.count({ where: { userId, purpose, usedAt: null } });
}

// ---- failed attempts (read back from the audit trail) ----------------------------------------

/** Audit actions of a refused password: a failed sign-in, a wrong current password. */
export const FAILURE_ACTIONS = ['access.unauthenticated', 'password.check_failed'];

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
