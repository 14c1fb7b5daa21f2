import { isIP } from 'node:net';
import type { EmailSettings } from '@quire/db';
import { mailer } from '../../lib/load-later.js';
import { decryptSecret } from '../../lib/secrets.js';
import { deliveryAddress, SmtpHostRefused } from './email.hosts.js';

// Sends one message through the saved SMTP settings with nodemailer. One connection per
// call: mail is rare (resets, notifications, tests), and a fresh connection always sees the
// latest settings.

interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string | null;
}

interface Delivered {
  messageId: string | null;
  response: string | null;
}

const SMTP_TIMEOUTS = { connectionTimeout: 15_000, greetingTimeout: 15_000, socketTimeout: 30_000 };

interface DeliveryPolicy {
  /** Whether mail may go to this machine or a private network (SMTP_ALLOW_PRIVATE_HOSTS). */
  allowPrivateHosts: boolean;
}

export async function deliver(
  settings: EmailSettings,
  secretKey: Buffer,
  mail: MailMessage,
  policy: DeliveryPolicy,
): Promise<Delivered> {
  let password: string | undefined;
  if (settings.passwordEncrypted) {
    try {
      password = decryptSecret(secretKey, settings.passwordEncrypted);
    } catch {
      throw new SmtpHostRefused(
        'The stored SMTP password cannot be read (the secret key changed); save the settings again',
      );
    }
  }
  // Connect to the address that was checked (no second lookup that could answer otherwise);
  // TLS still verifies the certificate against the host name.
  const address = await deliveryAddress(settings.host, policy.allowPrivateHosts);
  const transport = mailer().createTransport({
    host: address,
    ...(isIP(settings.host.replace(/^\[(.*)\]$/, '$1')) ? {} : { tls: { servername: settings.host } }),
    port: settings.port,
    secure: settings.security === 'tls',
    requireTLS: settings.security === 'starttls',
    ignoreTLS: settings.security === 'none',
    ...(settings.username ? { auth: { user: settings.username, pass: password ?? '' } } : {}),
    ...SMTP_TIMEOUTS,
  });
  try {
    const info = await transport.sendMail({
      from: { name: settings.fromName, address: settings.fromAddress },
      to: mail.to,
      subject: mail.subject,
      text: mail.text,
      ...(mail.html ? { html: mail.html } : {}),
    });
    return { messageId: info.messageId ?? null, response: info.response ?? null };
  } finally {
    transport.close();
  }
}

const SMTP_FAILURES: Record<string, string> = {
  EAUTH: 'The SMTP server refused the user name or password',
  ENOAUTH: 'The SMTP server asks for a user name and password',
  ECONNREFUSED: 'The SMTP server refused the connection',
  ECONNRESET: 'The SMTP server closed the connection',
  ETIMEDOUT: 'The SMTP server did not answer in time',
  ETIMEOUT: 'The SMTP server did not answer in time',
  ENOTFOUND: 'The SMTP host name could not be found',
  EDNS: 'The SMTP host name could not be found',
  EHOSTUNREACH: 'The SMTP host cannot be reached',
  ENETUNREACH: 'The SMTP host cannot be reached',
  ECONNECTION: 'The connection to the SMTP server failed',
  ESOCKET: 'The connection to the SMTP server failed',
  ETLS: 'The secure (TLS) connection to the SMTP server failed',
  EENVELOPE: 'The SMTP server refused the sender or a recipient',
  EMESSAGE: 'The SMTP server refused the message',
  EPROTOCOL: 'The SMTP server answered in an unexpected way',
};

/**
 * An SMTP failure as one line for last_error, the audit trail and the admin: what happened in
 * our own words, with the error code and the SMTP reply code, never the remote server's text
 * (a banner or reply would turn the queue into a read-out of whatever the host runs) and
 * never the password.
 */
export function describeSmtpError(err: unknown): string {
  if (err instanceof SmtpHostRefused) return err.message;
  const e = err as { code?: string; originalCode?: string; responseCode?: number };
  // nodemailer keeps the socket's own code (ECONNREFUSED) as originalCode under its ESOCKET.
  const known = [e?.originalCode, e?.code].find((c) => typeof c === 'string' && c in SMTP_FAILURES);
  const code = known ?? (typeof e?.code === 'string' && /^[A-Z_]{2,32}$/.test(e.code) ? e.code : null);
  const what = (code && SMTP_FAILURES[code]) ?? 'The message could not be sent';
  const parts = [code, typeof e?.responseCode === 'number' ? `SMTP ${e.responseCode}` : null].filter(Boolean);
  return parts.length ? `${what} (${parts.join(', ')})` : what;
}
