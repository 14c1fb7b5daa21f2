import { expect, test } from '@playwright/test';
import {
  DIRECTORY_PASSWORDS,
  READER_DN,
  READER_PASSWORD,
  startTestDirectory,
  type TestDirectory,
} from '../../apps/api/test/slapd.js';
import { E2E_ADMIN } from '../playwright.config.js';
import { expectAccessible, openSection, signInAs } from './walk.js';

// The admin configures LDAP against a private slapd (seeded directory, free port), tests it,
// saves it; a directory user then signs in with the directory password.
let ldap: TestDirectory;
test.beforeAll(async () => {
  ldap = await startTestDirectory();
});
test.afterAll(async () => {
  await ldap?.stop();
});

test('configure LDAP against the test slapd and sign in as a directory user', async ({ page }) => {
  await signInAs(page, E2E_ADMIN, 'admin', /\/admin\/category$/);

  await openSection(page, 'External authentication');
  await page.getByLabel('Server URL').fill(ldap.url);
  await page.getByLabel('Bind DN').fill(READER_DN);
  await page.getByLabel('Bind password').fill(READER_PASSWORD);
  await page.getByLabel('Search base').fill('dc=quire,dc=test');
  await page.getByLabel('User filter').fill('(&(objectClass=inetOrgPerson)(uid={username}))');

  // The test reports what it found.
  await page.getByLabel('Look up this username').fill('bob');
  await page.getByRole('button', { name: 'Test', exact: true }).click();
  await expect(
    page.getByRole('status').filter({ hasText: 'found uid=bob,ou=people,dc=quire,dc=test' }),
  ).toBeVisible();
  await expectAccessible(page, 'External authentication, tested');

  // A new connection starts turned off; tested, it may be turned on.
  await page.getByLabel('Let directory accounts sign in').check();
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByRole('status').filter({ hasText: 'External authentication saved' })).toBeVisible();

  await page.getByRole('button', { name: /^Account: / }).click();
  await page.getByRole('button', { name: 'Sign out' }).click();
  await signInAs(page, { username: 'bob', password: DIRECTORY_PASSWORDS.bob }, 'user', /\/dashboard$/);
});
