import { type LoginRole, mayUseRole, type TLoginData } from '@quire/contract';
import { accessTypeFromDb } from '../../lib/access-types.js';
import { type Actor, audit } from '../../lib/audit.js';
import type { Deps } from '../../lib/deps.js';
import { notAuthenticated } from '../../lib/errors.js';
import { dummyPasswordHash, verifyPassword } from '../../lib/passwords.js';
import type { AuthContext } from '../../lib/session.js';
import { newToken } from '../../lib/tokens.js';
import { toUserDto } from '../../lib/user-dto.js';
import { accountInactive, invalidCredentials, invalidRole } from './auth.errors.js';
import * as repo from './auth.repository.js';

export interface LoginInput {
  username: string;
  password: string;
  role: LoginRole;
}

/** Checks the credentials and the role, and opens a session. */
export async function login(
  deps: Deps,
  input: LoginInput,
  client: { ip?: string; userAgent?: string },
): Promise<TLoginData> {
  const user = await repo.findUserByLogin(deps.db, input.username);
  // Verify against a dummy hash when there is no such user, so the time taken does not tell.
  const ok = await verifyPassword(user?.passwordHash ?? (await dummyPasswordHash()), input.password);
  if (!user || !ok) throw invalidCredentials(input.username);
  if (user.status !== 'active') throw accountInactive(user.status);
  const accessType = accessTypeFromDb(user.accessType);
  if (!mayUseRole(accessType, input.role)) throw invalidRole();

  const { token, hash } = newToken();
  const now = deps.now();
  const actor: Actor = { userId: user.id, ip: client.ip };
  await deps.db.$transaction(async (tx) => {
    await repo.createSession(tx, {
      tokenHash: hash,
      userId: user.id,
      loginRole: input.role,
      expiresAt: new Date(now.getTime() + deps.config.SESSION_TTL_HOURS * 3_600_000),
      ip: client.ip,
      userAgent: client.userAgent?.slice(0, 512),
    });
    await audit(tx, actor, {
      type: 'auth',
      action: 'login.success',
      message: `${user.username} signed in as ${input.role}`,
      targetType: 'user',
      targetId: user.id,
    });
  });
  return {
    access_token: token,
    access_type: accessType,
    accountType: input.role === 'admin' ? 'Admin' : 'User',
    role: input.role,
    isCompany2FAEnabled: user.company.twoFactorRequired,
    isUser2FAEnabled: user.twoFactorEnabled,
    user: toUserDto(user),
  };
}

/** Revokes the session at once: its token stops working on the next call. */
export async function logout(deps: Deps, auth: AuthContext, actor: Actor): Promise<void> {
  await deps.db.$transaction(async (tx) => {
    await repo.revokeSession(tx, auth.sessionId, deps.now());
    await audit(tx, actor, {
      type: 'auth',
      action: 'logout',
      message: `${auth.username} signed out`,
      targetType: 'user',
      targetId: auth.userId,
    });
  });
}

export async function sessionState(deps: Deps, auth: AuthContext) {
  const session = await repo.findSession(deps.db, auth.sessionId);
  if (!session) throw notAuthenticated();
  return {
    active: true as const,
    twoFactorVerified: !auth.twoFactorPending,
    expires_at: session.expiresAt.toISOString(),
  };
}

export async function currentUser(deps: Deps, auth: AuthContext) {
  const user = await repo.findUser(deps.db, auth.userId);
  if (!user) throw notAuthenticated();
  return toUserDto(user);
}
