import { expect, test } from '@playwright/test';
import { scannedImage } from '../../apps/api/test/scans.ts';
import { adminToken, createJourneyUser, createWorkplace } from './journey-api.js';
import { DESKTOP, expectAccessible, openCategory, signInAs } from './walk.js';
import { uniqueWord } from './words.js';

// A member of staff scans a paper invoice and uploads the picture by clicking: once text
// recognition has read it (the file page says so, on its one page), the header search finds
// it by a word printed on it (a word in no name, value or comment), and the hit shows the
// scan's thumbnail and opens the file with the word marked on the scan.

test('a scanned invoice is found by a word printed on it', async ({ page, request }) => {
  test.setTimeout(170_000);
  await page.setViewportSize(DESKTOP);
  const stamp = `scan${Date.now().toString(36)}`;
  const word = uniqueWord();
  const token = await adminToken(request);
  const staff = await createJourneyUser(request, token, 'scanner');
  const place = await createWorkplace(request, token, staff, stamp);
  const name = `invoice-${stamp}.png`;
  // Text set in Helvetica and rendered to a grey PNG, as a scanner would give it.
  const scan = await scannedImage(`INVOICE 4711\n${word} Plumbing Ltd\nTotal due 1250 EUR`);

  await signInAs(page, staff, 'user', /\/dashboard$/);

  // Upload the scan into the category, then index it.
  await openCategory(page, place.invoices.name);
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('main').getByRole('button', { name: 'Upload', exact: true }).first().click();
  await (await chooser).setFiles({ name, mimeType: 'image/png', buffer: scan });
  await expect(page.getByRole('progressbar', { name })).toContainText('Uploaded');
  await page.getByRole('link', { name: 'Index the uploaded files' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Unindexed files' })).toBeVisible();
  await page.getByRole('button', { name: `Index ${name}` }).click();
  const form = page.getByRole('form', { name: new RegExp(stamp) });
  await form.getByRole('combobox', { name: new RegExp(place.field) }).fill('Appr');
  await page.getByRole('option', { name: 'Approved' }).click();
  await form.getByRole('button', { name: 'Save and index' }).click();
  await expect(page.getByRole('row', { name: new RegExp(stamp) })).toHaveCount(0);

  // Its page says, once text recognition has run (about 10 s a page here; the page looks
  // again every 3 s while it is pending), that text was recognised on its one page.
  await openCategory(page, place.invoices.name);
  await page.getByRole('grid', { name: 'Files' }).getByRole('link', { name }).click();
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
  const status = page.getByRole('region', { name: 'Search' });
  await expect(status).toContainText(/Text recognised on 1 page .*\(eng\)/, { timeout: 120_000 });
  await expect(status).toContainText('Its content is searchable');
  await expect(status.getByRole('button', { name: 'Recognise text again' })).toBeVisible();
  await expectAccessible(page, 'File page of a scan');

  // The header search finds it by the printed word: the match is in its content, marked,
  // not in its name. (The results of a text are kept for 30 s, so the search is made once
  // recognition has run: searching the same text again would show the kept answer.)
  const search = page.getByRole('combobox', { name: 'Search files' });
  const found = page.getByRole('grid', { name: 'Files found' });
  const hit = found.getByRole('row', { name: new RegExp(stamp) });
  await search.fill(word);
  await search.press('Enter');
  await expect(page.getByRole('heading', { level: 1, name: `Search: ${word}` })).toBeVisible();
  await expect(hit).toBeVisible();
  await expect(hit.locator('mark').filter({ hasText: new RegExp(word, 'i') })).toBeVisible();
  // Its thumbnail (decorative, alt=""), made from the scan by a job: a picture, not the icon.
  const thumbnail = hit.locator('img.thumbnail__image');
  await expect(async () => {
    await expect(thumbnail).toBeVisible({ timeout: 2_000 });
    expect(await thumbnail.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
  }).toPass({ timeout: 30_000 });
  await expectAccessible(page, 'Search results');

  // The hit opens the file page again, the word marked over the scan and the count said.
  await hit.getByRole('link', { name }).click();
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
  const preview = page.getByRole('region', { name: 'Preview' });
  await expect(preview.getByRole('status')).toHaveText('1 match on page 1');
  const mark = preview.locator('.file-preview__sheet .file-preview__mark');
  await expect(mark).toHaveCount(1);
  const box = await mark.boundingBox();
  const image = await preview.getByRole('img', { name }).boundingBox();
  if (!box || !image) throw new Error('The scan or its mark has no box');
  expect(box.x).toBeGreaterThanOrEqual(image.x);
  expect(box.x + box.width).toBeLessThanOrEqual(image.x + image.width);
  expect(box.y + box.height).toBeLessThanOrEqual(image.y + image.height);
  await expectAccessible(page, 'File page of a scan, a word marked');
});
