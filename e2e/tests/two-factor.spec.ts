import { expect, type Page, test } from '@playwright/test';
import { generate } from 'otplib';
import { adminToken, createGeneralStaff, type JourneyUser } from './journey-api.js';
import { expectAccessible } from './walk.js';

const STEP_SECONDS = 30;
const stepOf = (ms: number) => Math.floor(ms / 1000 / STEP_SECONDS);

/** A code for a time step after `usedStep` (the server refuses a step twice), waiting if needed. */
async function freshCode(secret: string, usedStep: number | null): Promise<{ code: string; step: number }> {
  let now = Date.now();
  if (usedStep !== null && stepOf(now) <= usedStep) {
    const nextStepAt = (usedStep + 1) * STEP_SECONDS * 1000;
    await new Promise((resolve) => setTimeout(resolve, nextStepAt - now + 1_000));
    now = Date.now();
  }
  const code = await generate({ secret, epoch: Math.floor(now / 1000) });
  return { code, step: stepOf(now) };
}

async function signIn(page: Page, user: JourneyUser) {
  await page.goto('/login');
  await page.getByLabel('Username or e-mail').fill(user.username);
  await page.getByLabel('Password', { exact: true }).fill(user.password);
  await page.getByLabel('Role').selectOption('user');
  await page.getByRole('button', { name: 'Sign in' }).click();
}

test('a user turns on 2FA in Profile, and the next sign-in asks for a code', async ({ page, request }) => {
  test.setTimeout(120_000);
  const user = await createGeneralStaff(request, await adminToken(request), 'tfa');

  await signIn(page, user);
  await expect(page).toHaveURL(/\/dashboard$/);

  await page.getByRole('button', { name: /^Account: / }).click();
  await page.getByRole('link', { name: 'Profile' }).click();
  await expect(page).toHaveURL(/\/profile$/);
  const twoFactor = page.getByRole('region', { name: /Two-factor authentication/ });
  await expect(twoFactor.getByText('Off', { exact: true })).toBeVisible();
  await twoFactor.getByRole('button', { name: 'Turn on two-factor authentication' }).click();
  await expect(twoFactor.getByRole('img', { name: /QR code/ })).toBeVisible();
  const secret = (await twoFactor.getByTestId('manual-key').textContent())?.trim() ?? '';
  expect(secret).toMatch(/^[A-Z2-7]+=*$/);
  await expectAccessible(page, 'Profile: turning on two-factor');

  const first = await freshCode(secret, null);
  await twoFactor.getByLabel('Verification code').fill(first.code);
  await twoFactor.getByRole('button', { name: 'Verify and turn on' }).click();
  await expect(page.getByText('2FA verified successfully!')).toBeVisible();
  await expect(twoFactor.getByText('On', { exact: true })).toBeVisible();

  // Ten recovery codes, shown once: one is kept for later.
  const codes = twoFactor.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem');
  await expect(codes).toHaveCount(10);
  const recoveryCode = ((await codes.first().textContent()) ?? '').trim();
  expect(recoveryCode).not.toBe('');
  await expectAccessible(page, 'Profile: recovery codes shown once');
  await twoFactor.getByRole('button', { name: 'I have saved them' }).click();
  await expect(codes).toHaveCount(0);
  await expect(twoFactor.getByTestId('recovery-codes-left')).toContainText('10 recovery codes left');

  await page.getByRole('button', { name: /^Account: / }).click();
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/$/);

  await signIn(page, user);
  await expect(page).toHaveURL(/\/auth\/verify-2fa\?role=user&access_type=General\+staff$/);
  expect(await page.evaluate(() => localStorage.getItem('auth'))).toBeNull();
  await expectAccessible(page, 'Two-factor sign-in step');

  const second = await freshCode(secret, first.step);
  await page.getByLabel('Verification code').fill(second.code);
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page.getByText('2FA verified successfully!').first()).toBeVisible();
  await expect(page).toHaveURL(/\/dashboard$/, { timeout: 10_000 });
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem('isUser2FAVerified'))).toBe('true');

  // Without the phone: a recovery code signs in once, and is spent.
  await page.getByRole('button', { name: /^Account: / }).click();
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/$/);
  await signIn(page, user);
  await page.getByRole('button', { name: 'Use a recovery code' }).click();
  await page.getByLabel('Recovery code').fill(recoveryCode);
  await expectAccessible(page, 'Two-factor sign-in with a recovery code');
  await page.getByRole('button', { name: 'Sign in with the recovery code' }).click();
  await expect(page).toHaveURL(/\/dashboard$/, { timeout: 10_000 });
  await page.getByRole('button', { name: /^Account: / }).click();
  await page.getByRole('link', { name: 'Profile' }).click();
  await expect(twoFactor.getByTestId('recovery-codes-left')).toContainText('9 recovery codes left');
});
