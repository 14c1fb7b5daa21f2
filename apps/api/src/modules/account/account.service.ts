import { passwordProblems, type TChangeOwnPasswordBody, type TUser } from '@quire/contract';
import { type Actor, audit } from '../../lib/audit.js';
import type { Deps, Tx } from '../../lib/deps.js';
import { invalidInput, notAuthenticated } from '../../lib/errors.js';
import { hashPassword, verifyPassword } from '../../lib/passwords.js';
import type { AuthContext } from '../../lib/session.js';
import { toUserDto } from '../../lib/user-dto.js';
import { sameAsCurrentPassword, wrongCurrentPassword } from './account.errors.js';
import * as repo from './account.repository.js';
import { spendLinks } from './link-token.service.js';
import { endUserSessions } from './session.service.js';
import { assertMayTryPassword, recordPasswordFailure } from './throttle.service.js';

// Accounts' credentials: the one owner of looking users up for sign-in, of their passwords,
// sessions (session.service.ts), e-mailed links (link-token.service.ts) and failed attempts
// (throttle.service.ts). The auth and user areas both call these; neither imports the other.

export const findUser = (db: Tx, id: number) => repo.findUser(db, id);
export const findUserWithCompany = (db: Tx, id: number) => repo.findUserWithCompany(db, id);
export const findUserByLogin = (db: Tx, login: string) => repo.findUserByLogin(db, login);
export const findUserByEmail = (db: Tx, email: string) => repo.findUserByEmail(db, email);
export const findUserByUsername = (db: Tx, username: string) => repo.findUserByUsername(db, username);

/** The signed-in user (GET /api/user/current and /user/current/). */
export async function currentUser(deps: Deps, auth: AuthContext): Promise<TUser> {
  const user = await repo.findUser(deps.db, auth.userId);
  if (!user) throw notAuthenticated();
  return toUserDto(user);
}

/** 400 naming `field` with every rule the password breaks. */
export function assertPasswordPolicy(
  field: string,
  password: string,
  who: { username: string; email: string },
) {
  const problems = passwordProblems(password, who);
  if (problems.length > 0) {
    throw invalidInput(
      `${field}: ${problems[0]}`,
      problems.map((message) => ({ path: `body.${field}`, message })),
    );
  }
}

/**
 * Stores a new password hash inside the caller's transaction: the user's unused reset links
 * are spent and their sessions end (but `keepSessionId`). Returns how many sessions ended.
 */
export async function setPassword(
  tx: Tx,
  input: { userId: number; passwordHash: string; at: Date; keepSessionId?: string },
): Promise<number> {
  await repo.setPasswordHash(tx, input.userId, input.passwordHash, input.at);
  await spendLinks(tx, input.userId, 'password_reset', input.at);
  return endUserSessions(tx, input.userId, input.at, input.keepSessionId);
}

/**
 * Changes one's own password (PUT /account/updatepassword and POST /api/update-password).
 * A wrong current password counts like a failed sign-in, so a stolen session cannot guess it.
 */
export async function changeOwnPassword(
  deps: Deps,
  auth: AuthContext,
  actor: Actor,
  input: TChangeOwnPasswordBody,
): Promise<void> {
  const user = await repo.findUser(deps.db, auth.userId);
  if (!user) throw notAuthenticated();
  await assertMayTryPassword(deps, { userId: user.id, logins: [user.username, user.email], ip: actor.ip });
  if (!(await verifyPassword(user.passwordHash, input.current_password))) {
    await recordPasswordFailure(deps, actor, {
      action: 'password.check_failed',
      login: user.username,
      userId: user.id,
      code: 'auth.wrong_current_password',
      message: `${user.username}: a wrong current password was given to change the password`,
    });
    throw wrongCurrentPassword();
  }
  if (input.new_password === input.current_password) throw sameAsCurrentPassword();
  assertPasswordPolicy('new_password', input.new_password, user);
  const passwordHash = await hashPassword(input.new_password);
  const now = deps.now();
  await deps.db.$transaction(async (tx) => {
    const ended = await setPassword(tx, {
      userId: user.id,
      passwordHash,
      at: now,
      keepSessionId: auth.sessionId,
    });
    await audit(tx, actor, {
      type: 'auth',
      action: 'password.changed',
      message: `${user.username} changed their password`,
      targetType: 'user',
      targetId: user.id,
      details: { sessions_revoked: ended },
    });
  });
}
