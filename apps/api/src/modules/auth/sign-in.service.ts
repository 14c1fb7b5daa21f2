import { mayUseRole, type TLoginBody, type TLoginData } from '@quire/contract';
import { accessTypeFromDb } from '../../lib/access-types.js';
import { type Actor, audit } from '../../lib/audit.js';
import type { Deps } from '../../lib/deps.js';
import { dummyPasswordHash, verifyPassword } from '../../lib/passwords.js';
import type { AuthContext } from '../../lib/session.js';
import { toUserDto } from '../../lib/user-dto.js';
import { findUserByLogin } from '../account/account.service.js';
import { hasUnspentLink } from '../account/link-token.service.js';
import { endSession, openSession } from '../account/session.service.js';
import { assertMayTryPassword, loginsOf, recordPasswordFailure } from '../account/throttle.service.js';
import { authenticateExternal } from '../settings/directory-accounts.service.js';
import { accountInactive, emailNotVerified, invalidCredentials, invalidRole } from './auth.errors.js';

// Signing in and out.

/**
 * Checks the credentials and the role, and opens a session. The throttle (account/throttle
 * service) answers first when the address or the account must wait; then the password is
 * checked, against a dummy hash for an unknown login, so neither answer nor time tells which
 * accounts exist. Only after the right password does the answer say why an account cannot
 * sign in.
 */
export async function login(
  deps: Deps,
  input: TLoginBody,
  client: { ip?: string; userAgent?: string },
): Promise<TLoginData> {
  let user = await findUserByLogin(deps.db, input.username);
  await assertMayTryPassword(deps, {
    userId: user?.id ?? null,
    logins: loginsOf(user, input.username),
    ip: client.ip,
  });
  // The directory hook (settings area): an account without a local password, or a login
  // unknown here, is checked against the LDAP / Active Directory server when one is on.
  const external = user?.passwordHash
    ? null
    : await authenticateExternal(deps, input.username, input.password);
  if (external) user = await findUserByLogin(deps.db, external.username);
  const ok =
    external !== null ||
    (await verifyPassword(user?.passwordHash ?? (await dummyPasswordHash()), input.password));
  if (!user || !ok) {
    await recordPasswordFailure(
      deps,
      { userId: null, ip: client.ip },
      {
        action: 'access.unauthenticated',
        login: input.username,
        code: 'auth.invalid_credentials',
        message: 'Sign-in refused: invalid username or password',
      },
    );
    throw invalidCredentials();
  }
  if (user.status !== 'active') {
    const waitingForLink =
      user.status === 'deactivated' &&
      !user.emailVerifiedAt &&
      (await hasUnspentLink(deps.db, user.id, 'email_verification'));
    throw waitingForLink ? emailNotVerified() : accountInactive(user.status);
  }
  const accessType = accessTypeFromDb(user.accessType);
  if (!mayUseRole(accessType, input.role)) throw invalidRole();

  const actor: Actor = { userId: user.id, ip: client.ip };
  const token = await deps.db.$transaction(async (tx) => {
    const opened = await openSession(tx, deps, {
      userId: user.id,
      role: input.role,
      ip: client.ip,
      userAgent: client.userAgent,
    });
    await audit(tx, actor, {
      type: 'auth',
      action: 'login.success',
      message: `${user.username} signed in as ${input.role}`,
      targetType: 'user',
      targetId: user.id,
      // It clears the account's failures (account/throttle.service.ts): on the same clock.
      at: deps.now(),
    });
    return opened;
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
    await endSession(tx, auth.sessionId, deps.now());
    await audit(tx, actor, {
      type: 'auth',
      action: 'logout',
      message: `${auth.username} signed out`,
      targetType: 'user',
      targetId: auth.userId,
    });
  });
}

/** The session as the auth hook found it: no second query. */
export function sessionState(auth: AuthContext) {
  return {
    active: true as const,
    twoFactorVerified: !auth.twoFactorPending,
    expires_at: auth.expiresAt.toISOString(),
  };
}
