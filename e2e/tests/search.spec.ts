import { expect, test } from '@playwright/test';
import { textPdf } from '../../apps/api/test/documents.js';
import { E2E_ADMIN } from '../playwright.config.js';
import { adminToken, createJourneyUser, signIn, signOut } from './journey-api.js';
import { openCategory, openSection, searchFromHeader } from './walk.js';

// Finding a file by a word inside it, end to end in Chromium: the admin files a PDF document
// into a category one person may view; that person finds it from the header search by a word
// of its content, highlighted in the results, and opens it; someone without the right finds
// nothing; the Auditor reads the upload in the audit trail, with the tamper check.

const stamp = Date.now().toString(36);
// A word no other journey writes: only this file's content holds it.
const word = `zephyrine${stamp}`;

test('a word inside a file finds it, for those who may see it; the audit trail records it', async ({
  page,
  request,
}) => {
  test.setTimeout(180_000);
  const token = await adminToken(request);
  const reader = await createJourneyUser(request, token, 'finder');
  const outsider = await createJourneyUser(request, token, 'stranger');
  const auditor = await createJourneyUser(request, token, 'auditor', {
    access_type: 'Auditor',
    role: 'admin',
  });
  const category = await request.post('/api/storeFolder', {
    headers: { Authorization: `Bearer ${token}` },
    data: { name: `Minutes ${stamp}`, permissions: [{ user_id: reader.id, rights: ['view'] }] },
  });
  expect(category.status(), await category.text()).toBe(200);
  const fileName = `board-minutes-${stamp}.pdf`;

  // The admin files the document and indexes it.
  await signIn(page, E2E_ADMIN.username, E2E_ADMIN.password, 'admin');
  await openCategory(page, `Minutes ${stamp}`);
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('main').getByRole('button', { name: 'Upload', exact: true }).first().click();
  await (await chooser).setFiles({
    name: fileName,
    mimeType: 'application/pdf',
    buffer: textPdf(['Minutes of the board.', `The ${word} proposal was accepted unanimously.`]),
  });
  await page.getByRole('link', { name: 'Index the uploaded files' }).click();
  await expect(page).toHaveURL(/\/unindexed-files$/);
  await page
    .getByRole('row', { name: new RegExp(fileName) })
    .getByRole('button', { name: 'Index' })
    .click();
  await page.getByRole('button', { name: 'Save and index' }).click();
  await expect(page.getByRole('row', { name: new RegExp(fileName) })).toHaveCount(0);
  await signOut(page);

  // The reader finds it by a word of its content (read by a job: allow it a moment).
  await signIn(page, reader.username, reader.password, 'user');
  const results = page.getByRole('grid', { name: 'Files found' });
  await expect(async () => {
    await searchFromHeader(page, word);
    await expect(results.getByRole('row', { name: new RegExp(fileName) })).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 60_000 });
  const row = results.getByRole('row', { name: new RegExp(fileName) });
  await expect(row.locator('mark')).toContainText([word]);
  await expect(row).toContainText('proposal was accepted');
  await row.getByRole('link', { name: new RegExp(fileName) }).click();
  // A hit opens the file at the page the word is on, with the word marked.
  await expect(page).toHaveURL(new RegExp(`/files/\\d+\\?page=1&mark=${word}$`));
  await expect(page.getByRole('heading', { level: 1, name: fileName })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Search' })).toContainText('Its content is searchable');
  await signOut(page);

  // Someone without the right finds nothing, not even that it exists.
  await signIn(page, outsider.username, outsider.password, 'user');
  await searchFromHeader(page, word);
  await expect(page.getByRole('heading', { name: 'No files match' })).toBeVisible();
  await expect(page.getByText(fileName)).toHaveCount(0);
  await signOut(page);

  // The Auditor reads the upload in the audit trail; the chain verifies.
  await signIn(page, auditor.username, auditor.password, 'admin');
  await openSection(page, 'Audit trail');
  await expect(page.getByRole('heading', { level: 1, name: 'Audit trail' })).toBeVisible();
  const filters = page.getByRole('region', { name: 'Filters' });
  await filters.getByLabel('Type').selectOption('file');
  await expect(page).toHaveURL(/type=file/);
  await filters.getByRole('searchbox', { name: 'Search' }).fill(fileName);
  await filters.getByRole('searchbox', { name: 'Search' }).press('Enter');
  await expect(page).toHaveURL(/search=/);
  const events = page.getByRole('table', { name: 'Audit events' });
  await expect(events.getByRole('row', { name: new RegExp(fileName) }).first()).toBeVisible();
  // Only that file's events remain: its upload and its indexing.
  await expect(events.getByRole('row', { name: /upload/i }).first()).toBeVisible();
  for (const row of await events.locator('tbody tr').all()) await expect(row).toContainText(fileName);
  const check = page.getByRole('region', { name: 'Tamper check' });
  await check.getByRole('button').first().click();
  await expect(check).toContainText('The chain verifies', { timeout: 30_000 });
});
