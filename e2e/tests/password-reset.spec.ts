import { expect, test } from '@playwright/test';
import { adminToken, createGeneralStaff } from './journey-api.js';
import { decoded, startSmtp } from './smtp.js';
import { expectAccessible } from './walk.js';

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
    await expectAccessible(page, 'Forgot password');
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
    await expectAccessible(page, 'Choose a new password');
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
