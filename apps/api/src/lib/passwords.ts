import { randomBytes, randomInt } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';

// argon2id with the library's defaults (19 MiB, t=2), the OWASP baseline.

export function hashPassword(password: string): Promise<string> {
  return hash(password);
}

/**
 * Whether `password` matches; an account without a local password (one that signs in
 * through its directory) never matches, after the same work as a real check.
 */
export async function verifyPassword(passwordHash: string | null, password: string): Promise<boolean> {
  try {
    if (passwordHash === null) {
      await verify(await dummyPasswordHash(), password);
      return false;
    }
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

const ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789!@#%';

/** A strong random password: 20 characters, each uniform over 61 (~118 bits). */
export function generatePassword(length = 20): string {
  return Array.from({ length }, () => ALPHABET[randomInt(ALPHABET.length)]).join('');
}

/** A hash to verify against when the user does not exist, so timing does not tell. */
let dummyHash: Promise<string> | undefined;
export function dummyPasswordHash(): Promise<string> {
  dummyHash ??= hashPassword(randomBytes(16).toString('hex'));
  return dummyHash;
}
