import { expect, test } from '@playwright/test';
import { E2E_ADMIN } from '../playwright.config.js';
import { expectAccessible, openSection, signInAs } from './walk.js';

// One fresh account per run, so the journey also passes against a database it ran on before.
const stamp = Date.now().toString(36);
const NEW_USER = {
  username: `gstaff-${stamp}`,
  email: `gstaff-${stamp}@example.test`,
  firstName: 'Grace',
  lastName: `Staff ${stamp}`,
  password: 'Amber-Harbour-Lantern-73',
};

test('the admin creates a General staff user, who then signs in and lands on the dashboard', async ({
  page,
}) => {
  // The admin signs in through the form.
  await signInAs(page, E2E_ADMIN, 'admin', /\/admin\/category$/);

  // Settings → Users.
  await openSection(page, 'Users');
  await expect(page).toHaveURL(/\/admin\/users$/);
  await expect(page.getByRole('row', { name: new RegExp(`\\(you\\) ${E2E_ADMIN.username}`) })).toBeVisible();

  // The form, in its dialog.
  await page.getByRole('button', { name: 'New user' }).click();
  const dialog = page.getByRole('dialog', { name: 'New user' });
  await expect(dialog.getByLabel('Username')).toBeFocused();
  await dialog.getByLabel('Username').fill(NEW_USER.username);
  await dialog.getByLabel('E-mail').fill(NEW_USER.email);
  await dialog.getByLabel('First name').fill(NEW_USER.firstName);
  await dialog.getByLabel('Last name').fill(NEW_USER.lastName);
  await expect(dialog.getByLabel('Access type')).toHaveValue('General staff');
  await expect(dialog.getByLabel('Role')).toHaveValue('user');
  await dialog.getByLabel('Password', { exact: true }).fill(NEW_USER.password);
  await expect(dialog.getByRole('listitem').filter({ hasText: 'Not a common password' })).toHaveClass(
    /is-met/,
  );
  await expectAccessible(page, 'New user');
  await dialog.getByRole('button', { name: 'Create user' }).click();

  await expect(dialog).toBeHidden();
  await expect(page.getByRole('status').filter({ hasText: 'User created' })).toBeVisible();
  const row = page.getByRole('row', { name: new RegExp(NEW_USER.username) });
  await expect(row).toBeVisible();
  await expect(row).toContainText(`${NEW_USER.firstName} ${NEW_USER.lastName}`);
  await expect(row).toContainText(NEW_USER.email);
  await expect(row).toContainText('General Staff');
  await expect(row).toContainText('Active');

  // The admin signs out; the new user signs in as a User.
  await page.getByRole('button', { name: /^Account: / }).click();
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/$/);

  await page.goto('/login');
  await page.getByLabel('Username or e-mail').fill(NEW_USER.username);
  await page.getByLabel('Password').fill(NEW_USER.password);
  await page.getByLabel('Role').selectOption('user');
  await page.getByRole('button', { name: 'Sign in' }).click();

  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
  await page.getByRole('button', { name: /^Account: / }).click();
  await expect(
    page
      .getByRole('region', { name: 'Signed in as' })
      .getByText(`${NEW_USER.firstName} ${NEW_USER.lastName}`),
  ).toBeVisible();
  // A General staff user has no administration: only the workspace navigation.
  await expect(
    page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Users' }),
  ).toHaveCount(0);
});
