import { expect, test } from '@playwright/test';
import { E2E_ADMIN } from '../playwright.config.js';
import { createCategoryInDb } from './journey-api.js';
import { expectAccessible, openCategory, openSection, signInAs } from './walk.js';

// Files, end to end in Chromium: upload two files, index one, check it out and in with a new
// version, roll back, share a public link and open it signed out, trash it and restore it.

const stamp = Date.now().toString(36);

test('upload, index, versions, a public link, the trash', async ({ page, browser }) => {
  test.setTimeout(180_000);
  const category = `Journey ${stamp}`;
  const categoryId = await createCategoryInDb(category);

  await signInAs(page, E2E_ADMIN, 'admin', /\/admin\/category$/);

  // Two files at once, each with its progress; then on to the unindexed files.
  await openCategory(page, category);
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('main').getByRole('button', { name: 'Upload', exact: true }).first().click();
  await (await chooser).setFiles([
    { name: `alpha-${stamp}.txt`, mimeType: 'text/plain', buffer: Buffer.from('alpha, first version\n') },
    { name: `beta-${stamp}.txt`, mimeType: 'text/plain', buffer: Buffer.from('beta\n') },
  ]);
  await page.getByRole('link', { name: 'Index the uploaded files' }).click();
  await expect(page).toHaveURL(/\/unindexed-files$/);
  await expect(page.getByRole('row', { name: new RegExp(`beta-${stamp}`) })).toBeVisible();
  await page
    .getByRole('row', { name: new RegExp(`alpha-${stamp}`) })
    .getByRole('button', { name: 'Index' })
    .click();
  await page.getByRole('button', { name: 'Save and index' }).click();
  await expect(page.getByRole('row', { name: new RegExp(`alpha-${stamp}`) })).toHaveCount(0);

  // The category list shows it; its page previews the text.
  await openCategory(page, category);
  await page.getByRole('link', { name: `alpha-${stamp}.txt` }).click();
  await expect(page.getByRole('heading', { level: 1, name: `alpha-${stamp}.txt` })).toBeVisible();
  await expect(page.getByText('alpha, first version')).toBeVisible();

  // Check out, check in a new version, roll back.
  await page.getByRole('button', { name: 'Check out' }).click();
  await expect(page.getByText(/checked out by/)).toBeVisible();
  await page.getByRole('button', { name: 'Check in' }).click();
  const dialog = page.getByRole('dialog', { name: 'Check in' });
  await dialog.getByLabel('New version').setInputFiles({
    name: 'alpha-v2.txt',
    mimeType: 'text/plain',
    buffer: Buffer.from('alpha, second version\n'),
  });
  await dialog.getByRole('button', { name: 'Check in' }).click();
  await expect(page.getByText('alpha, second version')).toBeVisible();
  await expect(page.getByText(/· version 2$/)).toBeVisible();
  await page.getByRole('button', { name: 'Roll back to version 1' }).click();
  await page
    .getByRole('dialog', { name: 'Roll back to version 1?' })
    .getByRole('button', { name: 'Make version 1 current' })
    .click();
  await expect(page.getByText(/· version 3$/)).toBeVisible();
  await expectAccessible(page, 'File page with versions');
  await expect(page.getByText('alpha, first version')).toBeVisible();

  // A public link, opened signed out.
  await page.getByRole('button', { name: 'Share link' }).click();
  await page.getByRole('button', { name: 'Create link' }).click();
  const link = await page.getByLabel('Share link').inputValue();
  expect(link).toMatch(/\/preview-file\/[A-Za-z0-9_-]{43}$/);
  await page.getByRole('button', { name: 'Done' }).click();
  const outsider = await browser.newContext();
  const publicPage = await outsider.newPage();
  await publicPage.goto(link);
  await expect(publicPage.getByRole('heading', { name: `alpha-${stamp}.txt` })).toBeVisible();
  await expect(publicPage.getByText('alpha, first version')).toBeVisible();
  await expectAccessible(publicPage, 'Public share page');
  await outsider.close();

  // Trash, then restore.
  await page.getByRole('button', { name: 'Delete' }).click();
  await page
    .getByRole('dialog', { name: 'Move to the trash?' })
    .getByRole('button', { name: 'Delete' })
    .click();
  await expect(page).toHaveURL(new RegExp(`/files/category/${categoryId}$`));
  await openSection(page, 'Trash');
  await page
    .getByRole('row', { name: new RegExp(`alpha-${stamp}`) })
    .getByRole('button', { name: /Restore/ })
    .click();
  await page
    .getByRole('dialog', { name: `Restore alpha-${stamp}.txt?` })
    .getByRole('button', { name: 'Restore' })
    .click();
  await expect(page.getByText('File restored')).toBeVisible();
  await openCategory(page, category);
  await expect(page.getByRole('link', { name: `alpha-${stamp}.txt` })).toBeVisible();
});
