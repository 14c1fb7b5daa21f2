import type { EmailSettings } from '@quire/db';
import { createTransport } from 'nodemailer';
import { decryptSecret } from '../../lib/secrets.js';

// Sends one message through the saved SMTP settings with nodemailer. One connection per
// call: mail is rare (resets, notifications, tests), and a fresh connection always sees the
// latest settings.

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string | null;
}

export interface Delivered {
  messageId: string | null;
  response: string | null;
}

export const SMTP_TIMEOUTS = { connectionTimeout: 15_000, greetingTimeout: 15_000, socketTimeout: 30_000 };

export async function deliver(
  settings: EmailSettings,
  secretKey: Buffer,
  mail: MailMessage,
): Promise<Delivered> {
  let password: string | undefined;
  if (settings.passwordEncrypted) {
    try {
      password = decryptSecret(secretKey, settings.passwordEncrypted);
    } catch {
      throw new Error(
        'The stored SMTP password cannot be read (the secret key changed); save the settings again',
      );
    }
  }
  const transport = createTransport({
    host: settings.host,
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

/** An SMTP failure as one line for last_error and the admin (never the password). */
export function describeSmtpError(err: unknown): string {
  const e = err as { message?: string; code?: string; responseCode?: number };
  const message = (e?.message ?? String(err)).replace(/\s+/g, ' ').trim();
  return (e?.code && !message.includes(e.code) ? `${e.code}: ${message}` : message).slice(0, 1000);
}
