import type { AddressInfo } from 'node:net';
import { expect, test } from '@playwright/test';
import { SMTPServer } from 'smtp-server';
import { adminToken, createGeneralStaff } from './journey-api.js';

interface Mail {
  to: string[];
  raw: string;
}

/** A plain SMTP listener on 127.0.0.1 and a free port that keeps what it receives. */
async function startSmtp() {
  const messages: Mail[] = [];
  const server = new SMTPServer({
    secure: false,
    disabledCommands: ['STARTTLS'],
    authOptional: true,
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('error', callback);
      stream.on('end', () => {
        messages.push({
          to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.server.address() as AddressInfo;
  return {
    port,
    messages,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The message text with quoted-printable and base64 bodies decoded. */
function decoded(raw: string): string {
  const qp = raw
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/gi, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
  const base64 = [...raw.matchAll(/\r?\n\r?\n([A-Za-z0-9+/=\r\n]{40,})/g)]
    .map((m) => Buffer.from(m[1]?.replace(/\s+/g, '') ?? '', 'base64').toString('utf8'))
    .join('\n');
  return `${qp}\n${base64}`;
}

test('a user resets a forgotten password through the e-mailed link', async ({ page, request, baseURL }) => {
  test.setTimeout(90_000);
  const smtp = await startSmtp();
  try {
    const token = await adminToken(request);
    const setup = await request.post('/api/email/setup', {
      headers: { Authorization: `Bearer ${token}` },
      data: {
        host: '127.0.0.1',
        port: smtp.port,
        security: 'none',
        from_address: 'quire@example.test',
        from_name: 'Quire journeys',
      },
    });
    expect(setup.status(), await setup.text()).toBe(200);
    const user = await createGeneralStaff(request, token, 'reset');

    await page.goto('/login');
    await page.getByRole('link', { name: 'Forgot password?' }).click();
    await expect(page).toHaveURL(/\/forgot-password$/);
    // Exactly "E-mail": until the page's chunk arrives, the sign-in page (whose "Username or
    // e-mail" would match too) is still the one on screen.
    await page.getByLabel('E-mail', { exact: true }).fill(user.email);
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await expect(
      page.getByText('If an account exists for that address, we have sent a link to reset the password.'),
    ).toBeVisible();

    let link = '';
    await expect
      .poll(
        () => {
          const mail = smtp.messages.find((m) => m.to.includes(user.email));
          const found = mail
            ? decoded(mail.raw).match(/https?:\/\/\S+\/reset-password\?token=[^\s"<>]+/)
            : null;
          link = found?.[0] ?? '';
          return link;
        },
        { timeout: 20_000, message: 'the reset e-mail arrives at the SMTP listener' },
      )
      .not.toBe('');
    const url = new URL(link);
    expect(url.searchParams.get('email')).toBe(user.email);

    await page.goto(`${baseURL}${url.pathname}${url.search}`);
    await expect(page.getByRole('heading', { level: 1, name: 'Choose a new password' })).toBeVisible();
    const newPassword = 'Fresh-Reset-Phrase-77';
    await page.getByLabel('New password', { exact: true }).fill(newPassword);
    await expect(page.getByText('At least 10 characters')).toBeVisible();
    await page.getByLabel('Confirm new password').fill(newPassword);
    await page.getByRole('button', { name: 'Set new password' }).click();
    await expect(page).toHaveURL(/\/login$/);
    await expect(
      page.getByText('Your password has been reset. Sign in with the new password.'),
    ).toBeVisible();

    // The old password no longer works.
    await page.getByLabel('Username or e-mail').fill(user.username);
    await page.getByLabel('Password', { exact: true }).fill(user.password);
    await page.getByLabel('Role').selectOption('user');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByText('Invalid username or password')).toBeVisible();
    await expect(page).toHaveURL(/\/login/);

    await page.getByLabel('Password', { exact: true }).fill(newPassword);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();

    // The link is spent.
    const again = await request.post('/account/password/verify-token', {
      data: { email: user.email, token: url.searchParams.get('token') },
    });
    expect(again.status()).toBe(400);
  } finally {
    await smtp.close();
  }
});
