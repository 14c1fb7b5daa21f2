import type { Deps, Tx } from '../../lib/deps.js';
import { hashToken, newToken } from '../../lib/tokens.js';
import { invalidLink } from './account.errors.js';
import * as repo from './account.repository.js';

// Single-use links sent by e-mail (password reset, e-mail verification): only the token's
// sha256 is stored, a newer link replaces the older ones, and a link is spent once used.

type LinkPurpose = Exclude<repo.TokenPurpose, 'two_factor_recovery'>;

const LINK_TTL_MS: Record<LinkPurpose, number> = {
  password_reset: 60 * 60 * 1000,
  email_verification: 24 * 60 * 60 * 1000,
};

/** A new link token for the user (inside the caller's transaction); earlier ones are spent. */
export async function issueLinkToken(tx: Tx, deps: Deps, userId: number, purpose: LinkPurpose) {
  const now = deps.now();
  const { token, hash } = newToken();
  await repo.spendUserTokens(tx, userId, purpose, now);
  await repo.createUserToken(tx, {
    userId,
    purpose,
    tokenHash: hash,
    expiresAt: new Date(now.getTime() + LINK_TTL_MS[purpose]),
  });
  return token;
}

/** The live token row for `email` with its user, or a refusal ("invalid or expired"). */
export async function findLiveLinkToken(deps: Deps, purpose: LinkPurpose, email: string, token: string) {
  const row = await repo.findUserTokenByHash(deps.db, purpose, hashToken(token));
  if (!row || row.usedAt || row.expiresAt <= deps.now() || row.user.email !== email.trim().toLowerCase()) {
    throw invalidLink();
  }
  return { ...row, purpose };
}

/** Spends the link that was followed, and the user's other links of that purpose; refuses a spent one. */
export async function spendLink(tx: Tx, row: { id: number; userId: number; purpose: LinkPurpose }, at: Date) {
  const spent = await repo.spendUserToken(tx, row.id, at);
  if (spent.count === 0) throw invalidLink();
  await repo.spendUserTokens(tx, row.userId, row.purpose, at);
}

/** Spends every unused link of one purpose (an admin's decision or a new password replaces them). */
export function spendLinks(tx: Tx, userId: number, purpose: LinkPurpose, at: Date) {
  return repo.spendUserTokens(tx, userId, purpose, at);
}

export async function hasUnspentLink(db: Tx, userId: number, purpose: LinkPurpose) {
  return (await repo.countUnspentUserTokens(db, userId, purpose)) > 0;
}
