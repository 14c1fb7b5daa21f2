import type { Deps } from '../../../lib/deps.js';
import { badField } from '../../../lib/errors.js';
import { isPrivateHost } from '../../../lib/private-hosts.js';
import { decryptSecret } from '../../../lib/secrets.js';
import { IMAP_PRIVATE_HOST_MESSAGE, type ImapAccount, ImapFailure } from './imap.connection.js';

// An inbox source's settings: read back from the stored JSON, turned into the account to sign
// in with (the password decrypted), and the checks on where a password may be sent.

/** The source's settings as stored (the contract's fields, the password encrypted). */
export interface ImapSourceSettings {
  host: string;
  port: number;
  tls: boolean;
  user: string;
  mailbox: string;
  sender_filter: string;
  subject_filter: string;
  after_take: 'mark' | 'move';
  move_to: string;
  take_message: boolean;
  password_encrypted: string | null;
  /** A certificate (PEM) to trust for this server besides the system's. */
  ca_certificate: string | null;
}

const text = (v: unknown, fallback = '') => (typeof v === 'string' ? v : fallback);

export function imapSettings(settings: unknown): ImapSourceSettings {
  const s = (settings ?? {}) as Record<string, unknown>;
  return {
    host: text(s.host),
    port: Number(s.port ?? 993),
    tls: s.tls !== false,
    user: text(s.user),
    mailbox: text(s.mailbox, 'INBOX') || 'INBOX',
    sender_filter: text(s.sender_filter),
    subject_filter: text(s.subject_filter),
    after_take: s.after_take === 'move' ? 'move' : 'mark',
    move_to: text(s.move_to),
    take_message: s.take_message === true,
    password_encrypted:
      typeof s.password_encrypted === 'string' && s.password_encrypted ? s.password_encrypted : null,
    ca_certificate: typeof s.ca_certificate === 'string' && s.ca_certificate ? s.ca_certificate : null,
  };
}

/** The account to sign in with: the stored password decrypted with the secret key. */
export function accountOf(deps: Deps, settings: ImapSourceSettings, password?: string): ImapAccount {
  let pass = password ?? '';
  if (password === undefined && settings.password_encrypted) {
    try {
      pass = decryptSecret(deps.secretKey, settings.password_encrypted);
    } catch {
      throw new ImapFailure(
        'The stored IMAP password cannot be read (the secret key changed); save the source again',
      );
    }
  }
  return {
    host: settings.host,
    port: settings.port,
    tls: settings.tls,
    user: settings.user,
    password: pass,
    caCertificate: settings.ca_certificate,
  };
}

/** Whether a stored password may go to these settings' server: the one it was given for. */
export function sameServer(
  a: Pick<ImapSourceSettings, 'host' | 'port' | 'tls' | 'user'>,
  b: typeof a,
): boolean {
  return (
    a.host.toLowerCase() === b.host.toLowerCase() && a.port === b.port && a.tls === b.tls && a.user === b.user
  );
}

/**
 * Refuses (400 naming the host) an inbox on this machine or a private network unless the
 * operator allows it (IMAP_ALLOW_PRIVATE_HOSTS), as the SMTP settings are; checked again at
 * every connection.
 */
export async function assertInboxHostAllowed(deps: Deps, host: string): Promise<void> {
  if (!deps.config.IMAP_ALLOW_PRIVATE_HOSTS && (await isPrivateHost(host)))
    throw badField('body.settings.host', IMAP_PRIVATE_HOST_MESSAGE);
}
