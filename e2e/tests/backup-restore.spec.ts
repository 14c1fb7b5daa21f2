import { expect, test } from '@playwright/test';
import { E2E_ADMIN } from '../playwright.config.js';
import { adminToken } from './journey-api.js';
import { expectAccessible, openSection, signInAs } from './walk.js';

// The admin makes a backup, changes data, restores the backup and sees the earlier data back.
const stamp = Date.now().toString(36);
const BEFORE = `Kept group ${stamp}`;
const AFTER = `Group made after the backup ${stamp}`;

test('create a backup, change data, restore it and see the earlier data back', async ({ page, request }) => {
  test.setTimeout(180_000);
  const token = await adminToken(request);
  const group = (name: string) =>
    request.post('/api/create_group', {
      headers: { Authorization: `Bearer ${token}` },
      data: { name, description: '' },
    });
  expect((await group(BEFORE)).status()).toBe(200);

  await signInAs(page, E2E_ADMIN, 'admin', /\/admin\/category$/);

  await openSection(page, 'Backups');
  await expect(page).toHaveURL(/\/admin\/backups$/);
  const runs = page.getByRole('region', { name: 'Backup runs' });
  await runs.getByRole('button', { name: 'Create backup' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Backup started' })).toBeVisible();
  // The job runs in the background; the list follows its progress until it is done.
  const files = page.getByRole('region', { name: 'Backup files' });
  const archive = files.getByRole('row', { name: /quire-backup-/ }).first();
  await expect(archive).toBeVisible({ timeout: 60_000 });
  await expect(archive).toContainText('Checksums match');
  await expect(runs.getByRole('row', { name: /quire-backup-/ }).first()).toContainText('Done');
  await expectAccessible(page, 'Backups');

  // Data changes after the backup.
  expect((await group(AFTER)).status()).toBe(200);

  // Restore: the password again and RESTORE typed out.
  await archive.getByRole('button', { name: /^Restore / }).click();
  const dialog = page.getByRole('dialog', { name: 'Restore this backup?' });
  await dialog.getByLabel('Your password').fill(E2E_ADMIN.password);
  await dialog.getByLabel('Type RESTORE to confirm').fill('RESTORE');
  await expectAccessible(page, 'Restore this backup?');
  await dialog.getByRole('button', { name: 'Restore' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('status').filter({ hasText: 'Restore started' })).toBeVisible();
  await expect(runs.getByRole('row', { name: /quire-backup-/ }).first()).toContainText('Restored', {
    timeout: 90_000,
  });

  // The earlier data is back: the group made before is there, the one made after is gone.
  await openSection(page, 'Groups');
  await expect(page).toHaveURL(/\/admin\/groups$/);
  await expect(page.getByText(BEFORE)).toBeVisible();
  await expect(page.getByText(AFTER)).toHaveCount(0);
});
