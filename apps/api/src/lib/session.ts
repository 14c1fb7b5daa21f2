import type { AccessType, LoginRole } from '@quire/contract';
import { accessTypeFromDb } from './access-types.js';
import type { Deps } from './deps.js';
import { hashToken } from './tokens.js';

export interface AuthContext {
  sessionId: string;
  userId: number;
  username: string;
  accessType: AccessType;
  /** The login role this session signed in with. */
  role: LoginRole;
  /** True while a second factor is needed (company or user 2FA) and not yet given. */
  twoFactorPending: boolean;
  expiresAt: Date;
}

const TOUCH_EVERY_MS = 60_000;

/**
 * The live session behind a bearer token, or null: unknown, revoked, expired, or its user
 * no longer active. Sliding expiry: use within SESSION_TTL_HOURS keeps it alive.
 */
export async function resolveSession(deps: Deps, token: string): Promise<AuthContext | null> {
  const session = await deps.db.session.findUnique({
    where: { tokenHash: hashToken(token) },
    relationLoadStrategy: 'join',
    include: { user: { include: { company: { select: { twoFactorRequired: true } } } } },
  });
  const now = deps.now();
  if (!session || session.revokedAt || session.expiresAt <= now || session.user.status !== 'active')
    return null;

  let expiresAt = session.expiresAt;
  if (now.getTime() - session.lastSeenAt.getTime() > TOUCH_EVERY_MS) {
    expiresAt = new Date(now.getTime() + deps.config.SESSION_TTL_HOURS * 3_600_000);
    await deps.db.session.update({ where: { id: session.id }, data: { lastSeenAt: now, expiresAt } });
  }
  const needs2fa = session.user.company.twoFactorRequired || session.user.twoFactorEnabled;
  return {
    sessionId: session.id,
    userId: session.userId,
    username: session.user.username,
    accessType: accessTypeFromDb(session.user.accessType),
    role: session.loginRole,
    twoFactorPending: needs2fa && !session.twoFactorVerified,
    expiresAt,
  };
}

/** `Authorization: Bearer <token>` -> token. */
export function bearerToken(header: string | undefined): string | null {
  const match = header?.match(/^Bearer\s+(\S+)$/i);
  return match?.[1] ?? null;
}
