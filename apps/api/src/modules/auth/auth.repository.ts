import type { Prisma } from '@quire/db';
import type { Tx } from '../../lib/deps.js';
import { pageWindow } from '../../lib/paging.js';

/** Sign-in takes a username or an e-mail: with "@" it is an e-mail (usernames have none). */
export function findUserByLogin(db: Tx, login: string) {
  const value = login.trim().toLowerCase();
  return db.user.findFirst({
    where: value.includes('@') ? { email: value } : { username: value },
    include: { company: { select: { twoFactorRequired: true } } },
  });
}

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

export function revokeSession(tx: Tx, sessionId: string, at: Date) {
  return tx.session.updateMany({ where: { id: sessionId, revokedAt: null }, data: { revokedAt: at } });
}

export function findUser(db: Tx, userId: number) {
  return db.user.findUnique({ where: { id: userId } });
}

// ---- users -------------------------------------------------------------------------------

export function findUserWithCompany(db: Tx, userId: number) {
  return db.user.findUnique({
    where: { id: userId },
    include: { company: { select: { id: true, twoFactorRequired: true } } },
  });
}

export function findUserByEmail(db: Tx, email: string) {
  return db.user.findUnique({ where: { email: email.trim().toLowerCase() } });
}

export function findUserByUsername(db: Tx, username: string) {
  return db.user.findUnique({ where: { username: username.trim().toLowerCase() } });
}

export function findCompany(db: Tx) {
  return db.company.findFirst({ orderBy: { id: 'asc' } });
}

export function updateCompanySignIn(
  tx: Tx,
  companyId: number,
  data: { twoFactorRequired?: boolean; selfRegistration?: boolean },
) {
  return tx.company.update({ where: { id: companyId }, data });
}

export function createSelfRegisteredUser(
  tx: Tx,
  data: {
    companyId: number;
    username: string;
    email: string;
    firstName: string;
    lastName: string;
    passwordHash: string;
  },
) {
  return tx.user.create({
    data: { ...data, loginRole: 'user', accessType: 'GENERAL_STAFF', status: 'deactivated' },
  });
}

export function activateVerifiedUser(tx: Tx, userId: number, at: Date) {
  return tx.user.update({ where: { id: userId }, data: { status: 'active', emailVerifiedAt: at } });
}

export function setPassword(tx: Tx, userId: number, passwordHash: string, at: Date) {
  return tx.user.update({ where: { id: userId }, data: { passwordHash, passwordChangedAt: at } });
}

// ---- two-factor --------------------------------------------------------------------------

export function setTwoFactorSecret(tx: Tx, userId: number, sealedSecret: string) {
  return tx.user.update({
    where: { id: userId },
    data: { twoFactorSecret: sealedSecret, twoFactorLastStep: null },
  });
}

/** Records an accepted time step; 0 rows when that step (or a later one) was already used. */
export function claimTwoFactorStep(tx: Tx, userId: number, step: number) {
  return tx.user.updateMany({
    where: { id: userId, OR: [{ twoFactorLastStep: null }, { twoFactorLastStep: { lt: BigInt(step) } }] },
    data: { twoFactorLastStep: BigInt(step) },
  });
}

export function enableTwoFactor(tx: Tx, userId: number) {
  return tx.user.update({ where: { id: userId }, data: { twoFactorEnabled: true } });
}

export function clearTwoFactor(tx: Tx, userId: number) {
  return tx.user.update({
    where: { id: userId },
    data: { twoFactorEnabled: false, twoFactorSecret: null, twoFactorLastStep: null },
  });
}

export function markSessionTwoFactorVerified(tx: Tx, sessionId: string) {
  return tx.session.update({ where: { id: sessionId }, data: { twoFactorVerified: true } });
}

/** Ends every live session of a user, except `keepSessionId` when given. */
export function revokeUserSessions(tx: Tx, userId: number, at: Date, keepSessionId?: string) {
  return tx.session.updateMany({
    where: { userId, revokedAt: null, ...(keepSessionId ? { id: { not: keepSessionId } } : {}) },
    data: { revokedAt: at },
  });
}

// ---- e-mailed link tokens ----------------------------------------------------------------

type TokenPurpose = 'password_reset' | 'email_verification';

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

/** Spends every unused token of one purpose of a user (a newer link replaces them). */
export function spendUserTokens(tx: Tx, userId: number, purpose: TokenPurpose, at: Date) {
  return tx.userToken.updateMany({ where: { userId, purpose, usedAt: null }, data: { usedAt: at } });
}

/** Tokens of one purpose of a user not spent yet (expired ones included). */
export function countUnspentUserTokens(db: Tx, userId: number, purpose: TokenPurpose) {
  return db.userToken.count({ where: { userId, purpose, usedAt: null } });
}

// ---- failed attempts (read back from the audit trail) ---------------------------------------

/** Refused sign-ins (wrong password or unknown login) naming any of `logins` since `since`. */
export function countFailedSignIns(db: Tx, logins: string[], since: Date) {
  return db.auditEvent.count({
    where: {
      action: 'access.unauthenticated',
      createdAt: { gte: since },
      OR: logins.map((login) => ({ details: { path: ['username'], equals: login } })),
    },
  });
}

/** Refused two-factor codes (or passwords to turn 2FA off) of a user since `since`. */
export function countRefusedCodes(db: Tx, userId: number, since: Date) {
  return db.auditEvent.count({
    where: {
      action: { in: ['2fa.failed', '2fa.disable_failed'] },
      targetType: 'user',
      targetId: String(userId),
      createdAt: { gte: since },
    },
  });
}

// ---- client errors -----------------------------------------------------------------------

export function createClientError(
  tx: Tx,
  data: {
    userId: number | null;
    message: string;
    data: Prisma.InputJsonValue;
    url: string | null;
    userAgent: string | null;
    ip: string | null;
  },
) {
  return tx.clientError.create({ data, select: { id: true } });
}

export async function listClientErrors(db: Tx, page: number, quantity: number) {
  const [total, rows] = await Promise.all([
    db.clientError.count(),
    db.clientError.findMany({
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      ...pageWindow({ page, quantity }),
      include: { user: { select: { username: true } } },
    }),
  ]);
  return { total, rows };
}
