import type { Prisma } from '@quire/db';
import type { Tx } from '../../lib/deps.js';
import { pageWindow } from '../../lib/paging.js';

// The auth area's own tables and columns: the company's sign-in settings, self-registered
// accounts, the 2FA columns of a user, refused codes and client errors. Users, passwords,
// sessions and links are the account module's (account.service.ts).

// ---- company ---------------------------------------------------------------------------------

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

// ---- self-registration -----------------------------------------------------------------------

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

/** Activates a self-registered account; 0 rows unless it is still deactivated. */
export function activateVerifiedUser(tx: Tx, userId: number, at: Date) {
  return tx.user.updateMany({
    where: { id: userId, status: 'deactivated' },
    data: { status: 'active', emailVerifiedAt: at },
  });
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
