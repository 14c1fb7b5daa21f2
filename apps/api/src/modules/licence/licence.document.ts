import { createPrivateKey, createPublicKey, type KeyObject, sign, verify } from 'node:crypto';
import { z } from 'zod';

// The licence document (decision 014): `QUIRE1.<payload>.<signature>`, both parts base64url.
// The payload is JSON (licensee, seats, validity, features); the signature is ed25519 over
// the exact payload bytes, made with the vendor's private key (`pnpm licence:issue`, never in
// the repository) and checked with the public key below (or LICENCE_PUBLIC_KEY). Changing a
// single byte of either part makes the check fail.

const LICENCE_PREFIX = 'QUIRE1';

/** The vendor's public key, shipped with Quire. */
export const VENDOR_PUBLIC_KEY = `-----BEGIN PUBLIC KEY-----
MCowBQYDK2VwAyEACBE7+tYWuMeIMuR891HRP7jJXQmGmjnaUT2d83JgDPU=
-----END PUBLIC KEY-----
`;

const ZLicencePayload = z.object({
  v: z.literal(1),
  /** The vendor's reference for this licence. */
  id: z.string().max(100).optional(),
  licensee: z.string().min(1).max(200),
  seats: z.number().int().min(1).max(10_000_000),
  starts_at: z.iso.datetime(),
  expires_at: z.iso.datetime(),
  features: z.array(z.string().min(1).max(100)).max(100),
});
export type LicencePayload = z.infer<typeof ZLicencePayload>;

export class LicenceDocumentError extends Error {
  override name = 'LicenceDocumentError';
}

/** Signs a payload with the vendor's private key (PEM): the licence text to hand out. */
export function signLicence(payload: LicencePayload, privateKeyPem: string): string {
  const key = createPrivateKey(privateKeyPem);
  if (key.asymmetricKeyType !== 'ed25519') throw new LicenceDocumentError('The private key is not ed25519');
  const body = Buffer.from(JSON.stringify(ZLicencePayload.parse(payload)), 'utf8');
  const signature = sign(null, body, key);
  return `${LICENCE_PREFIX}.${body.toString('base64url')}.${signature.toString('base64url')}`;
}

function publicKey(pem: string): KeyObject {
  const key = createPublicKey(pem);
  if (key.asymmetricKeyType !== 'ed25519') throw new LicenceDocumentError('The licence key is not ed25519');
  return key;
}

/**
 * The payload of a licence whose signature verifies against `publicKeyPem`; throws
 * LicenceDocumentError saying what is wrong (not a licence, altered or forged, unreadable).
 * The verdict is a pure function of the two texts, so the last one is remembered: the
 * installed licence is read on every write (the read-only gate), and parsing the key and
 * checking the signature each time cost about 0.2-0.4 ms a request on a small machine. Any
 * other document or key (a row edited in the database, a new licence) is checked afresh.
 */
export function verifyLicence(text: string, publicKeyPem: string): LicencePayload {
  if (last?.text !== text || last.publicKeyPem !== publicKeyPem) {
    let verdict: LicencePayload | LicenceDocumentError;
    try {
      verdict = checkLicence(text, publicKeyPem);
    } catch (err) {
      if (!(err instanceof LicenceDocumentError)) throw err;
      verdict = err;
    }
    last = { text, publicKeyPem, verdict };
  }
  const { verdict } = last;
  if (verdict instanceof LicenceDocumentError) throw new LicenceDocumentError(verdict.message);
  return { ...verdict, features: [...verdict.features] };
}

let last: { text: string; publicKeyPem: string; verdict: LicencePayload | LicenceDocumentError } | null =
  null;

function checkLicence(text: string, publicKeyPem: string): LicencePayload {
  const parts = text.replace(/\s+/g, '').split('.');
  if (parts.length !== 3 || parts[0] !== LICENCE_PREFIX || !parts[1] || !parts[2])
    throw new LicenceDocumentError('This is not a Quire licence (it should start with QUIRE1.)');
  const base64url = /^[A-Za-z0-9_-]+$/;
  if (!base64url.test(parts[1]) || !base64url.test(parts[2]))
    throw new LicenceDocumentError('This is not a Quire licence: it contains characters a licence never has');
  const body = Buffer.from(parts[1], 'base64url');
  const signature = Buffer.from(parts[2], 'base64url');
  if (!verify(null, body, publicKey(publicKeyPem), signature))
    throw new LicenceDocumentError(
      'The licence signature does not match: it was altered or not issued by the vendor',
    );
  let json: unknown;
  try {
    json = JSON.parse(body.toString('utf8'));
  } catch {
    throw new LicenceDocumentError('The licence content is unreadable');
  }
  const parsed = ZLicencePayload.safeParse(json);
  if (!parsed.success)
    throw new LicenceDocumentError('The licence content is not one this Quire understands');
  if (Date.parse(parsed.data.expires_at) <= Date.parse(parsed.data.starts_at))
    throw new LicenceDocumentError('The licence ends before it starts');
  return parsed.data;
}
