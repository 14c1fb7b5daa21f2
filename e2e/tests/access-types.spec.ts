import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import { E2E_ADMIN } from '../playwright.config.js';
import { adminToken, createJourneyUser, openAccountMenu } from './journey-api.js';
import { DESKTOP, expectAccessible, openSection, signInAs, walkSections } from './walk.js';

// One walk per administrative access type at 1366x850: sign in at /login, then reach every
// screen of the navigation by clicking it, each checked by axe-core. What each may do there
// (write or read only) is asserted on the screens where it differs.

test.use({ viewport: DESKTOP });

const SETTINGS = [
  { link: 'Administration' },
  { link: 'Users' },
  { link: 'Signed-in users' },
  { link: 'Groups' },
  { link: 'E-mail' },
  { link: 'Company setup' },
  { link: 'Sign-in security' },
  { link: 'Backups' },
  { link: 'External authentication' },
  { link: 'Audit trail' },
  { link: 'Client errors' },
];
const FILE_CONTROL = [
  { link: 'Categories' },
  { link: 'Category groups' },
  { link: 'Metadata fields' },
  { link: 'Value lists' },
  { link: 'Workflows' },
  { link: 'Trash' },
];

/** A new administrator of `accessType`, created through the API, signs in as admin at /login. */
async function signInAsNew(
  page: Page,
  request: APIRequestContext,
  prefix: string,
  accessType: string,
  landing: RegExp,
) {
  const person = await createJourneyUser(request, await adminToken(request), prefix, {
    access_type: accessType,
    role: 'admin',
  });
  await signInAs(page, person, 'admin', landing);
}

test('User Administration Admin: lands on Administration and reaches every Settings screen', async ({
  page,
  request,
}) => {
  test.setTimeout(180_000);
  await signInAsNew(page, request, 'uadmin', 'User Administration Admin', /\/admin\/dashboard$/);
  await expectAccessible(page, 'Administration');
  await walkSections(page, SETTINGS);
  // No File Control for this access type.
  await expect(
    page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Trash' }),
  ).toHaveCount(0);
  await openAccountMenu(page);
  await page.getByRole('link', { name: 'Profile' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Profile' })).toBeVisible();
  await expectAccessible(page, 'Profile');
});

test('Auditor: reads File Control and Settings, changes nothing', async ({ page, request }) => {
  test.setTimeout(180_000);
  await signInAsNew(page, request, 'auditor', 'Auditor', /\/admin\/category$/);
  await walkSections(page, [...FILE_CONTROL, ...SETTINGS]);
  // Read only: the users screen offers no way to add one.
  await openSection(page, 'Users');
  await expect(page.getByRole('button', { name: /add user|new user/i })).toHaveCount(0);
});

test('File Control Admin: reaches every File Control screen and no Settings', async ({ page, request }) => {
  test.setTimeout(180_000);
  await signInAsNew(page, request, 'fcadmin', 'File Control Admin', /\/admin\/category$/);
  await walkSections(page, FILE_CONTROL);
  await expect(
    page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Users' }),
  ).toHaveCount(0);
});

test('Company Admin: every File Control and Settings screen', async ({ page }) => {
  test.setTimeout(240_000);
  await signInAs(page, E2E_ADMIN, 'admin', /\/admin\/category$/);
  await walkSections(page, [...FILE_CONTROL, ...SETTINGS, { link: 'Assigned to me' }]);
});

test('vendor admin: licence management only', async ({ page }) => {
  await signInAs(
    page,
    { username: 'vendor', password: 'Amber-Falcon-Orbit-31' },
    'admin',
    /\/admin\/license-management$/,
  );
  await expect(page.getByRole('heading', { level: 1, name: 'Licence management' })).toBeVisible();
  await expectAccessible(page, 'Licence management');
  const links = page.getByRole('navigation', { name: 'Main' }).getByRole('link');
  await expect(links).toHaveCount(1);
});
