import { createCipheriv, createDecipheriv, createHash, createHmac, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The key that encrypts secrets at rest (the SMTP password, LDAP bind password): APP_SECRET
 * when set, else a random key generated once into DATA_DIR/secret.key (mode 600).
 */
export function loadSecretKey(appSecret: string | undefined, dataDir: string): Buffer {
  if (appSecret) return createHash('sha256').update(appSecret).digest();
  const file = path.join(dataDir, 'secret.key');
  if (!existsSync(file)) {
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(file, randomBytes(32).toString('hex'), { mode: 0o600, flag: 'wx' });
  }
  return Buffer.from(readFileSync(file, 'utf8').trim(), 'hex');
}

/** What a derived key is for: one key per purpose, none of them the secret key itself. */
type KeyPurpose = 'backup-archive' | 'audit-chain' | 'recovery-codes';

/**
 * A key of its own for one purpose, derived from the secret key (HMAC-SHA256 with a purpose
 * label): signing backups and keying the audit chain never use the key that encrypts secrets,
 * and none of these keys is ever stored in the database or in an archive.
 */
export function deriveKey(secretKey: Buffer, purpose: KeyPurpose): Buffer {
  return createHmac('sha256', secretKey).update(`quire:${purpose}:v1`).digest();
}

/** A short public name of a key (not the key): which installation signed something. */
export function keyId(key: Buffer): string {
  return createHash('sha256').update(key).digest('hex').slice(0, 16);
}

/** AES-256-GCM: `v1.<iv>.<tag>.<ciphertext>`, base64url parts. */
export function encryptSecret(key: Buffer, plain: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return ['v1', iv, cipher.getAuthTag(), data]
    .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
    .join('.');
}

export function decryptSecret(key: Buffer, sealed: string): string {
  const [version, iv, tag, data] = sealed.split('.');
  if (version !== 'v1' || !iv || !tag || data === undefined) throw new Error('Unreadable secret');
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
}
