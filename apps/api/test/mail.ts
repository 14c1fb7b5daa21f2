import { expect } from 'vitest';
import type { TestContext } from './app.js';

/** The page each kind of mail links to, on the test app's PUBLIC_URL (https://quire.example.test). */
const PAGES = { password_reset: 'reset-password', email_verification: 'verify-email' } as const;

/**
 * The token of the newest `kind` mail queued for `email`, read from its link (which must name
 * that address too).
 */
export async function tokenFromMail(t: Pick<TestContext, 'db'>, email: string, kind: keyof typeof PAGES) {
  const mail = await t.db.mailJob.findFirstOrThrow({ where: { to: email, kind }, orderBy: { id: 'desc' } });
  const link = mail.text.match(new RegExp(`https://quire\\.example\\.test/${PAGES[kind]}\\?\\S+`))?.[0];
  if (!link) throw new Error(`no ${PAGES[kind]} link in: ${mail.text}`);
  const url = new URL(link);
  expect(url.searchParams.get('email')).toBe(email);
  return url.searchParams.get('token') as string;
}
