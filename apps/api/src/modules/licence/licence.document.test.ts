import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { LicenceDocumentError, type LicencePayload, signLicence, verifyLicence } from './licence.document.js';

// The document's check on its own (no database): what the read-only gate relies on when it
// reads the installed licence on every write, with the last verdict remembered.

const pair = () => {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  return {
    publicPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    privatePem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
  };
};
const vendor = pair();
const payload: LicencePayload = {
  v: 1,
  licensee: 'Acme Ltd',
  seats: 25,
  starts_at: '2026-01-01T00:00:00.000Z',
  expires_at: '2027-01-01T00:00:00.000Z',
  features: ['ocr'],
};
const issued = signLicence(payload, vendor.privatePem);
/** The same document with one character of its payload changed. */
const altered = (() => {
  const [prefix, body, signature] = issued.split('.') as [string, string, string];
  const i = 10;
  return `${prefix}.${body.slice(0, i)}${body[i] === 'A' ? 'B' : 'A'}${body.slice(i + 1)}.${signature}`;
})();

describe('verifyLicence', () => {
  it('answers each document and key by its own check, whatever was checked before', () => {
    expect(verifyLicence(issued, vendor.publicPem).licensee).toBe('Acme Ltd');
    expect(() => verifyLicence(altered, vendor.publicPem)).toThrow(LicenceDocumentError);
    // The valid one again, right after a refusal, and twice in a row.
    expect(verifyLicence(issued, vendor.publicPem).seats).toBe(25);
    expect(verifyLicence(issued, vendor.publicPem).seats).toBe(25);
    // The same document against another key is not the vendor's.
    expect(() => verifyLicence(issued, pair().publicPem)).toThrow(/signature does not match/);
    expect(() => verifyLicence(altered, vendor.publicPem)).toThrow(/signature does not match/);
    expect(() => verifyLicence(altered, vendor.publicPem)).toThrow(/signature does not match/);
  });

  it('hands out a copy: changing one answer does not change the next', () => {
    const first = verifyLicence(issued, vendor.publicPem);
    first.features.push('forged');
    first.seats = 1_000_000;
    const again = verifyLicence(issued, vendor.publicPem);
    expect(again.features).toEqual(['ocr']);
    expect(again.seats).toBe(25);
  });
});
