import type { LoginRole } from '@quire/contract';
import { accessTypeFromDb } from '../../lib/access-types.js';
import type { Deps, Tx } from '../../lib/deps.js';
import type { AuthContext } from '../../lib/session.js';
import { hashToken, newToken } from '../../lib/tokens.js';
import * as repo from './account.repository.js';

// Sessions (decision 001): an opaque bearer token whose sha256 is the row's key. A session
// slides by SESSION_TTL_HOURS with use, and ends for good SESSION_MAX_HOURS after sign-in.

const HOUR = 3_600_000;
const TOUCH_EVERY_MS = 60_000;

/** When a session begun at `createdAt` ends whatever its use. */
function absoluteEnd(deps: Deps, createdAt: Date): Date {
  return new Date(createdAt.getTime() + deps.config.SESSION_MAX_HOURS * HOUR);
}

/** The sliding expiry from `now`, never past the session's absolute end. */
function slidingExpiry(deps: Deps, createdAt: Date, now: Date): Date {
  const sliding = now.getTime() + deps.config.SESSION_TTL_HOURS * HOUR;
  return new Date(Math.min(sliding, absoluteEnd(deps, createdAt).getTime()));
}

/** Opens a session inside the caller's transaction; returns its bearer token (never stored). */
export async function openSession(
  tx: Tx,
  deps: Deps,
  input: { userId: number; role: LoginRole; ip?: string; userAgent?: string },
): Promise<string> {
  const { token, hash } = newToken();
  const now = deps.now();
  await repo.createSession(tx, {
    tokenHash: hash,
    userId: input.userId,
    loginRole: input.role,
    expiresAt: slidingExpiry(deps, now, now),
    ip: input.ip,
    userAgent: input.userAgent?.slice(0, 512),
  });
  return token;
}

/**
 * The live session behind a bearer token, or null: unknown, revoked, expired (by disuse or
 * past its absolute end), or its user no longer active. Use slides the expiry, touching the
 * row at most once a minute.
 */
export async function resolveSession(deps: Deps, token: string): Promise<AuthContext | null> {
  const session = await repo.findSessionByTokenHash(deps.db, hashToken(token));
  const now = deps.now();
  if (
    !session ||
    session.revokedAt ||
    session.expiresAt <= now ||
    absoluteEnd(deps, session.createdAt) <= now ||
    session.status !== 'active'
  )
    return null;

  let expiresAt = session.expiresAt;
  if (now.getTime() - session.lastSeenAt.getTime() > TOUCH_EVERY_MS) {
    expiresAt = slidingExpiry(deps, session.createdAt, now);
    await repo.touchSession(deps.db, session.id, now, expiresAt);
  }
  const needs2fa = session.companyTwoFactorRequired || session.twoFactorEnabled;
  return {
    sessionId: session.id,
    userId: session.userId,
    username: session.username,
    accessType: accessTypeFromDb(session.accessType),
    role: session.loginRole,
    twoFactorPending: needs2fa && !session.twoFactorVerified,
    expiresAt,
  };
}

/** Ends one session; false when it had ended already. */
export async function endSession(tx: Tx, sessionId: string, at: Date): Promise<boolean> {
  return (await repo.revokeSession(tx, sessionId, at)).count > 0;
}

/** Ends every live session of a user (but `keepSessionId`); how many ended. */
export async function endUserSessions(tx: Tx, userId: number, at: Date, keepSessionId?: string) {
  return (await repo.revokeUserSessions(tx, userId, at, keepSessionId)).count;
}

export function markSessionVerified(tx: Tx, sessionId: string) {
  return repo.markSessionTwoFactorVerified(tx, sessionId);
}

/** Live sessions (not revoked, not expired, users active), most recently seen first. */
export function liveSessions(deps: Deps) {
  const now = deps.now();
  return repo.listLiveSessions(deps.db, now, new Date(now.getTime() - deps.config.SESSION_MAX_HOURS * HOUR));
}

/** A session that is still live, with its user; null otherwise. */
export async function findLiveSession(deps: Deps, id: string) {
  const session = await repo.findSession(deps.db, id);
  const now = deps.now();
  if (
    !session ||
    session.revokedAt ||
    session.expiresAt <= now ||
    absoluteEnd(deps, session.createdAt) <= now
  )
    return null;
  return session;
}
