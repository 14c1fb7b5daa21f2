import { type Actor, audit } from '../../lib/audit.js';
import type { Deps } from '../../lib/deps.js';
import { signInDelayed, tooManyFailuresFromAddress } from './account.errors.js';
import * as repo from './account.repository.js';

// Failed passwords, whoever types them (sign-in, and the current password when changing it),
// are audit events; this policy reads them back (docs/decisions/011-sign-in-throttle.md):
//
// - Per address: SOURCE_MAX_FAILURES refused passwords within the window, for any accounts,
//   and that address gets 429 for every account until they age out.
// - Per account, from anywhere: the first FREE_FAILURES cost nothing; after that each attempt
//   must wait 2 s, 4 s, 8 s, … (at most MAX_DELAY_MS) after the previous failure. An attempt
//   inside the wait is answered 429 without looking at the password, and counts for nothing.
//   The wait never exceeds a minute: the rightful user is slowed, never locked out, and a
//   brute force spread over many addresses gets about one guess a minute per account.
// - A new password (reset link, own change, an admin's) or an admin's explicit unlock, and a
//   successful sign-in, start the account's count afresh. An unknown login is slowed exactly
//   like a known one, so the answers tell nothing about which accounts exist.
//
// The failures are recorded at the app's clock (deps.now()) and the window is measured on it.

const THROTTLE = {
  WINDOW_MS: 15 * 60_000,
  FREE_FAILURES: 5,
  MAX_DELAY_MS: 60_000,
  SOURCE_MAX_FAILURES: 30,
} as const;

/** Audit actions after which an account's failures no longer count. */
const CLEARING_ACTIONS = [
  'login.success',
  'password.reset',
  'password.changed',
  'password.reset_by_admin',
  'user.sign_in_unlocked',
];

const windowStart = (deps: Pick<Deps, 'now'>) => new Date(deps.now().getTime() - THROTTLE.WINDOW_MS);

/** The logins an account's failures are recorded under: its username and e-mail, or the one typed. */
export function loginsOf(user: { username: string; email: string } | null, typed: string): string[] {
  return user ? [user.username, user.email] : [typed.trim().toLowerCase()];
}

/** Milliseconds the account must still wait before its password is looked at again (0: now). */
async function accountDelayMs(
  deps: Deps,
  account: { userId: number | null; logins: string[] },
): Promise<number> {
  const start = windowStart(deps);
  const cleared = account.userId
    ? await repo.lastEventOn(deps.db, account.userId, CLEARING_ACTIONS, start)
    : null;
  const since = cleared && cleared > start ? cleared : start;
  const { count, lastAt } = await repo.accountFailures(deps.db, account.logins, since);
  if (count < THROTTLE.FREE_FAILURES || !lastAt) return 0;
  const wait = Math.min(THROTTLE.MAX_DELAY_MS, 2000 * 2 ** (count - THROTTLE.FREE_FAILURES));
  return Math.max(0, lastAt.getTime() + wait - deps.now().getTime());
}

/** 429 before a password is looked at, when the address or the account must wait. */
export async function assertMayTryPassword(
  deps: Deps,
  attempt: { userId: number | null; logins: string[]; ip: string | null | undefined },
): Promise<void> {
  if (
    attempt.ip &&
    (await repo.sourceFailures(deps.db, attempt.ip, windowStart(deps))) >= THROTTLE.SOURCE_MAX_FAILURES
  ) {
    throw tooManyFailuresFromAddress();
  }
  const delay = await accountDelayMs(deps, attempt);
  if (delay > 0) throw signInDelayed(Math.ceil(delay / 1000));
}

/**
 * Records a refused password as a security event of its own (the refused call wrote nothing
 * else); the throttle above counts these by `login` and by address.
 */
export async function recordPasswordFailure(
  deps: Deps,
  actor: Actor,
  failure: {
    action: 'access.unauthenticated' | 'password.check_failed';
    login: string;
    code: string;
    message: string;
    userId?: number;
  },
): Promise<void> {
  await audit(deps.db, actor, {
    type: 'security',
    action: failure.action,
    message: failure.message,
    ...(failure.userId ? { targetType: 'user', targetId: failure.userId } : {}),
    details: { code: failure.code, username: failure.login.trim().toLowerCase() },
    at: deps.now(),
  });
}
