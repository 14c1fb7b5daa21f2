import { createHmac, randomInt } from 'node:crypto';
import type { Deps, Tx } from '../../lib/deps.js';
import { deriveKey } from '../../lib/secrets.js';
import * as repo from './account.repository.js';

// Two-factor recovery codes: ten single-use codes a person keeps on paper, each of which signs
// in once in place of an authenticator code. Shown once when issued; only an HMAC of each
// (with a key derived from the secret key, never in the database) is kept, in user_tokens
// (purpose two_factor_recovery), so a copy of the database alone cannot test guesses.

const RECOVERY_CODE_COUNT = 10;
/** Letters and digits that cannot be mistaken for one another (no 0/o, 1/l/i). */
const ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';
/** 10 characters of 31: about 49.5 bits each. */
const CODE_LENGTH = 10;
/** Recovery codes do not expire: they are spent, or replaced. */
const NEVER = new Date('9999-12-31T00:00:00.000Z');

const PURPOSE = 'two_factor_recovery' as const;

/** The code as stored and compared: lower case, without spaces or dashes. */
const normalise = (code: string) => code.toLowerCase().replace(/[\s-]+/g, '');

function hashOf(deps: Pick<Deps, 'secretKey'>, userId: number, code: string) {
  return createHmac('sha256', deriveKey(deps.secretKey, 'recovery-codes'))
    .update(`${userId}:${normalise(code)}`)
    .digest('hex');
}

function newCode(): string {
  let code = '';
  for (let i = 0; i < CODE_LENGTH; i++) code += ALPHABET[randomInt(ALPHABET.length)];
  return `${code.slice(0, 5)}-${code.slice(5)}`;
}

/** Ten new codes for the user (inside the caller's transaction); the earlier ones stop working. */
export async function issueRecoveryCodes(tx: Tx, deps: Pick<Deps, 'secretKey'>, userId: number) {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newCode);
  await repo.deleteUserTokens(tx, userId, PURPOSE);
  await repo.createUserTokens(
    tx,
    codes.map((code) => ({
      userId,
      purpose: PURPOSE,
      tokenHash: hashOf(deps, userId, code),
      expiresAt: NEVER,
    })),
  );
  return codes;
}

/** Spends one of the user's unspent codes; false when `code` is none of them. */
export async function spendRecoveryCode(
  tx: Tx,
  deps: Pick<Deps, 'secretKey' | 'now'>,
  userId: number,
  code: string,
): Promise<boolean> {
  const spent = await repo.spendUserTokenByHash(tx, userId, PURPOSE, hashOf(deps, userId, code), deps.now());
  return spent.count > 0;
}

/** How many of the user's codes are left. */
export function recoveryCodesLeft(db: Tx, userId: number) {
  return repo.countUnspentUserTokens(db, userId, PURPOSE);
}

/** Removes the user's codes (2FA turned off or reset). */
export function dropRecoveryCodes(tx: Tx, userId: number) {
  return repo.deleteUserTokens(tx, userId, PURPOSE);
}
