import type { TEmailTokenBody, TResetPasswordBody } from '@quire/contract';
import { type Actor, audit } from '../../lib/audit.js';
import type { Deps } from '../../lib/deps.js';
import { hashPassword } from '../../lib/passwords.js';
import { assertPasswordPolicy, findUserByEmail, setPassword } from '../account/account.service.js';
import { findLiveLinkToken, issueLinkToken, spendLink } from '../account/link-token.service.js';
import { enqueueMail } from '../email/email.queue.js';
import { invalidLink } from './auth.errors.js';
import { resetMail } from './auth.mail.js';

// Forgotten passwords: the e-mailed link, checking it, and setting a new password with it.

/**
 * The work behind "forgot password", run after the call has been answered (the same answer,
 * in the same time, for every address): when an active user has `email`, a new reset link
 * (earlier ones spent) and its mail, audited; nothing otherwise. `ip` is the asker's address,
 * for the audit trail.
 */
export async function sendResetMail(deps: Deps, email: string, ip: string | null = null): Promise<void> {
  const user = await findUserByEmail(deps.db, email);
  if (user?.status !== 'active') return;
  await deps.db.$transaction(async (tx) => {
    const token = await issueLinkToken(tx, deps, user.id, 'password_reset');
    await enqueueMail(tx, resetMail({ publicUrl: deps.config.publicUrl }, user, token));
    await audit(
      tx,
      { userId: null, ip },
      {
        type: 'auth',
        action: 'password.reset_requested',
        message: `A password reset link was sent to ${user.username}`,
        targetType: 'user',
        targetId: user.id,
      },
    );
  });
}

export async function checkResetToken(deps: Deps, input: TEmailTokenBody) {
  const row = await findLiveLinkToken(deps, 'password_reset', input.email, input.token);
  if (row.user.status !== 'active') throw invalidLink();
  return { valid: true as const };
}

/**
 * Sets the new password with a reset link: spends the link, ends every session, and lifts
 * the sign-in slowdown of failed attempts (the audit event `password.reset` clears it).
 */
export async function resetPassword(deps: Deps, input: TResetPasswordBody, actor: Actor): Promise<void> {
  const row = await findLiveLinkToken(deps, 'password_reset', input.email, input.token);
  const user = row.user;
  if (user.status !== 'active') throw invalidLink();
  assertPasswordPolicy('password', input.password, user);
  const passwordHash = await hashPassword(input.password);
  const now = deps.now();
  await deps.db.$transaction(async (tx) => {
    await spendLink(tx, row, now);
    const ended = await setPassword(tx, { userId: user.id, passwordHash, at: now });
    await audit(
      tx,
      { ...actor, userId: actor.userId ?? user.id },
      {
        type: 'auth',
        action: 'password.reset',
        message: `${user.username} set a new password with a reset link`,
        targetType: 'user',
        targetId: user.id,
        details: { sessions_revoked: ended },
      },
    );
  });
}
