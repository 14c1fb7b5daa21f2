import type { Tx } from '../../lib/deps.js';

export function findUserByLogin(db: Tx, login: string) {
  const value = login.trim().toLowerCase();
  return db.user.findFirst({
    where: { OR: [{ username: value }, { email: value }] },
    include: { company: { select: { twoFactorRequired: true } } },
  });
}

export function createSession(
  tx: Tx,
  data: { tokenHash: string; userId: number; loginRole: 'admin' | 'user'; expiresAt: Date; ip?: string; userAgent?: string },
) {
  return tx.session.create({ data });
}

export function revokeSession(tx: Tx, sessionId: string, at: Date) {
  return tx.session.updateMany({ where: { id: sessionId, revokedAt: null }, data: { revokedAt: at } });
}

export function findSession(db: Tx, sessionId: string) {
  return db.session.findUnique({ where: { id: sessionId } });
}

export function findUser(db: Tx, userId: number) {
  return db.user.findUnique({ where: { id: userId } });
}
