import { expect, type Page, test } from '@playwright/test';
import { docx } from '../../apps/api/test/documents.ts';
import { scannedPdfOf } from '../../apps/api/test/scans.ts';
import { rowXml, workbook } from '../../apps/api/test/xlsx.ts';
import { adminToken, createJourneyUser, createWorkplace } from './journey-api.js';
import { DESKTOP, expectAccessible, expectNoSidewaysScroll, openCategory, PHONE, signInAs } from './walk.js';
import { literal, uniqueWord } from './words.js';

// A member of staff uploads, by clicking, a two-page scan (a PDF of page images, no text
// layer), a letter (DOCX) and a price list (XLSX). Once text recognition has read the scan,
// the header search finds it by a word printed on its second page; the hit opens the file
// page with the preview at page 2, the word marked over the scanned image and the count said
// in words; the letter and the price list show on their file pages. At 1366x850 and 390x844.

const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
/** Unindexed files → Index <name> → the list value → Save and index. */
async function indexFile(page: Page, name: string, field: string) {
  await page.getByRole('button', { name: `Index ${name}` }).click();
  const form = page.getByRole('form', { name: literal(name) });
  await form.getByRole('combobox', { name: new RegExp(field) }).fill('Appr');
  await page.getByRole('option', { name: 'Approved' }).click();
  await form.getByRole('button', { name: 'Save and index' }).click();
  await expect(page.getByRole('row', { name: literal(name) })).toHaveCount(0);
}

/** The category's file list → the file's page. */
async function openFile(page: Page, category: string, name: string) {
  await openCategory(page, category);
  await page.getByRole('grid', { name: 'Files' }).getByRole('link', { name }).click();
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
}

for (const [width, viewport] of [
  ['desktop', DESKTOP],
  ['phone', PHONE],
] as const) {
  test(`a scanned page found by its word opens marked; Office files preview (${width})`, async ({
    page,
    request,
  }) => {
    test.setTimeout(300_000);
    await page.setViewportSize(viewport);
    const stamp = `pages${width}${Date.now().toString(36)}`;
    const word = uniqueWord();
    const token = await adminToken(request);
    const staff = await createJourneyUser(request, token, 'pager');
    const place = await createWorkplace(request, token, staff, stamp);
    const scan = `delivery-${stamp}.pdf`;
    const letter = `letter-${stamp}.docx`;
    // One long word, as file names often are: on a phone its page's heading wraps it.
    const prices = `prices_${stamp}_wholesale_catalogue.xlsx`;
    const files = [
      {
        name: scan,
        mimeType: 'application/pdf',
        buffer: await scannedPdfOf([
          'Delivery note one\nnothing special here',
          `Second sheet lists\nthe ${word} order`,
        ]),
      },
      { name: letter, mimeType: DOCX, buffer: docx(['Dear Madam, the numbat shipment', 'Kind regards']) },
      {
        name: prices,
        mimeType: XLSX,
        buffer: workbook(rowXml(1, ['Item', 'Price']) + rowXml(2, ['Wombat feed', '12'])),
      },
    ];

    await signInAs(page, staff, 'user', /\/dashboard$/);
    // The dashboard settles before the menu is used (a phone's Menu opened at once may not).
    await expectAccessible(page, 'Dashboard');

    // Upload the three into the category, then index each.
    await openCategory(page, place.invoices.name);
    const chooser = page.waitForEvent('filechooser');
    await page.getByRole('main').getByRole('button', { name: 'Upload', exact: true }).first().click();
    await (await chooser).setFiles(files);
    for (const f of files)
      await expect(page.getByRole('progressbar', { name: f.name })).toContainText('Uploaded');
    await page.getByRole('link', { name: 'Index the uploaded files' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Unindexed files' })).toBeVisible();
    for (const f of files) await indexFile(page, f.name, place.field);

    // The scan's page says, once recognition has run (seconds a page here), on both pages.
    await openFile(page, place.invoices.name, scan);
    const status = page.getByRole('region', { name: 'Search' });
    await expect(status).toContainText(/Text recognised on 2 pages/, { timeout: 150_000 });

    // The header search finds it by the word of page 2 (searched once recognition has run:
    // the results of a text are kept for 30 s); the hit names its page and opens there.
    if (width === 'phone') await page.getByRole('button', { name: 'Open search' }).click();
    const search = page.getByRole('combobox', { name: 'Search files' });
    await search.fill(word);
    await search.press('Enter');
    await expect(page.getByRole('heading', { level: 1, name: `Search: ${word}` })).toBeVisible();
    const hit = page.getByRole('main').getByRole('link', { name: scan });
    await expect(hit).toBeVisible();
    await expect(page.getByRole('main')).toContainText('(page 2)');
    await hit.click();
    await expect(page.getByRole('heading', { level: 1, name: scan })).toBeVisible();

    // Page 2 is scrolled to, the word is marked over the scanned image (a box inside the
    // page, wider than tall), and the count is said in words, not by the colour alone.
    const preview = page.getByRole('region', { name: 'Preview' });
    await expect(preview.getByRole('status')).toHaveText('1 match on page 2', { timeout: 30_000 });
    const pageTwo = preview.getByRole('img', { name: `${scan}, page 2 (1 match marked)` });
    await expect(pageTwo).toBeInViewport();
    const marks = preview.locator('.file-preview__sheet[data-page="2"] .file-preview__mark');
    await expect(marks).toHaveCount(1);
    await expect(preview.locator('.file-preview__sheet[data-page="1"] .file-preview__mark')).toHaveCount(0);
    const box = await marks.boundingBox();
    const sheet = await pageTwo.boundingBox();
    if (!box || !sheet) throw new Error('The page or its mark has no box');
    expect(box.x).toBeGreaterThanOrEqual(sheet.x);
    expect(box.y).toBeGreaterThanOrEqual(sheet.y);
    expect(box.x + box.width).toBeLessThanOrEqual(sheet.x + sheet.width);
    expect(box.y + box.height).toBeLessThanOrEqual(sheet.y + sheet.height);
    expect(box.width).toBeGreaterThan(box.height);
    await expectAccessible(page, 'File page of a scan, a word marked');
    if (width === 'phone') await expectNoSidewaysScroll(page, 'File page of a scan');

    // The letter and the price list show on their pages, from the HTML the server made.
    await openFile(page, place.invoices.name, letter);
    const letterFrame = page.frameLocator(`iframe[title="${letter} (document preview)"]`);
    await expect(letterFrame.locator('body')).toContainText('the numbat shipment', { timeout: 60_000 });
    await expectAccessible(page, 'File page of a letter');
    await openFile(page, place.invoices.name, prices);
    const sheetFrame = page.frameLocator(`iframe[title="${prices} (spreadsheet preview)"]`);
    await expect(sheetFrame.getByRole('cell', { name: 'Wombat feed' })).toBeVisible({ timeout: 60_000 });
    await expect(sheetFrame.getByRole('cell', { name: 'Price' })).toBeVisible();
    await expectAccessible(page, 'File page of a price list');
    if (width === 'phone') await expectNoSidewaysScroll(page, 'File page of a price list');
  });
}
