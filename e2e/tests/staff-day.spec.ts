import { expect, test } from '@playwright/test';
import { adminToken, createJourneyUser, createWorkplace } from './journey-api.js';
import {
  DESKTOP,
  expectAccessible,
  openCategory,
  openSection,
  PHONE,
  signInAs,
  walkSections,
} from './walk.js';

// A new member of staff, given only a username and a password, does a day's work by
// clicking: uploads into a category, indexes with a list value by its label, corrects and
// moves the file, adds a version, shares it, finds it by a word inside it, deletes and
// restores it, and acts on several files at once — at 1366x850 and again at 390x844.

for (const [width, viewport] of [
  ['desktop', DESKTOP],
  ['phone', PHONE],
] as const) {
  test(`a day's work by clicking (${width})`, async ({ page, request }) => {
    test.setTimeout(300_000);
    await page.setViewportSize(viewport);
    const stamp = `${width}${Date.now().toString(36)}`;
    const token = await adminToken(request);
    const staff = await createJourneyUser(request, token, 'staff');
    const place = await createWorkplace(request, token, staff, stamp);
    const word = `quillwort${stamp}`;

    await signInAs(page, staff, 'user', /\/dashboard$/);
    await expectAccessible(page, 'Dashboard');

    // Categories: open the category, upload two files into it.
    await openCategory(page, place.invoices.name);
    await expectAccessible(page, 'Category files');
    const chooser = page.waitForEvent('filechooser');
    await page.getByRole('main').getByRole('button', { name: 'Upload', exact: true }).first().click();
    await (await chooser).setFiles([
      {
        name: `invoice-${stamp}.txt`,
        mimeType: 'text/plain',
        buffer: Buffer.from(`Invoice for ${word} services\n`),
      },
      { name: `receipt-${stamp}.txt`, mimeType: 'text/plain', buffer: Buffer.from('A receipt\n') },
    ]);
    await expect(page.getByRole('progressbar', { name: `receipt-${stamp}.txt` })).toContainText('Uploaded');

    // Index the invoice with a list value chosen by its label (the key is never shown).
    await page.getByRole('link', { name: 'Index the uploaded files' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Unindexed files' })).toBeVisible();
    await page.getByRole('button', { name: `Index invoice-${stamp}.txt` }).click();
    const form = page.getByRole('form', { name: new RegExp(`invoice-${stamp}`) });
    await form.getByRole('combobox', { name: new RegExp(place.field) }).fill('Appr');
    await page.getByRole('option', { name: 'Approved' }).click();
    await expectAccessible(page, 'Unindexed files: the index form');
    await form.getByRole('button', { name: 'Save and index' }).click();
    await expect(page.getByRole('row', { name: new RegExp(`invoice-${stamp}`) })).toHaveCount(0);

    // The category lists it with its value; its page shows it.
    await openCategory(page, place.invoices.name);
    const files = page.getByRole('grid', { name: 'Files' });
    await expect(files.getByRole('row', { name: new RegExp(`invoice-${stamp}`) })).toContainText('Approved');
    await files.getByRole('link', { name: `invoice-${stamp}.txt` }).click();
    await expect(page.getByRole('heading', { level: 1, name: `invoice-${stamp}.txt` })).toBeVisible();
    await expectAccessible(page, 'File page');

    // Correct its value, then move it to the archive.
    const actions = page.getByRole('toolbar', { name: 'File actions' });
    await actions.getByRole('button', { name: 'Edit values' }).click();
    let dialog = page.getByRole('dialog', { name: `Edit the values of invoice-${stamp}.txt` });
    await dialog.getByRole('combobox', { name: new RegExp(place.field) }).fill('Rej');
    await page.getByRole('option', { name: 'Rejected' }).click();
    await expectAccessible(page, 'Edit values');
    await dialog.getByRole('button', { name: 'Save values' }).click();
    await expect(page.getByRole('region', { name: 'Values' })).toContainText('Rejected');
    await actions.getByRole('button', { name: 'Move' }).click();
    dialog = page.getByRole('dialog', { name: `Move invoice-${stamp}.txt` });
    await dialog.getByLabel('Move to category').selectOption({ label: place.archive.name });
    await dialog.getByRole('button', { name: `Move to ${place.archive.name}` }).click();
    await expect(page.getByRole('main').getByRole('link', { name: place.archive.name })).toBeVisible();

    // A new version, from the file page.
    const chooser2 = page.waitForEvent('filechooser');
    await page.getByRole('button', { name: 'Upload new version' }).click();
    await (await chooser2).setFiles({
      name: `invoice-${stamp}.txt`,
      mimeType: 'text/plain',
      buffer: Buffer.from(`Invoice for ${word} services, corrected\n`),
    });
    dialog = page.getByRole('dialog', { name: 'Upload version 2' });
    await dialog.getByLabel('Comment (optional)').fill('Corrected total');
    await dialog.getByRole('button', { name: 'Upload version 2' }).click();
    await expect(page.getByRole('region', { name: 'Preview' })).toContainText('corrected');
    await expect(page.getByRole('region', { name: 'Versions' })).toContainText('Version 2');
    // Every change is in the file's history, newest first.
    const history = page
      .getByRole('region', { name: 'History' })
      .getByRole('list', { name: 'Changes, newest first' });
    // Text extraction runs as a job and may land its own entry above, so order is checked
    // between the two changes this person made.
    await expect
      .poll(async () => {
        const items = await history.getByRole('listitem').allTextContents();
        const version = items.findIndex((text) => text.includes('version 2'));
        const moved = items.findIndex((text) => text.includes('Moved'));
        return version >= 0 && moved > version;
      })
      .toBe(true);
    await expect(history).not.toContainText('Viewed');

    // A public link.
    await page.getByRole('button', { name: 'Share link' }).click();
    dialog = page.getByRole('dialog', { name: 'Share a link' });
    await dialog.getByRole('button', { name: 'Create link' }).click();
    await expect(dialog.getByRole('textbox', { name: 'Share link' })).toHaveValue(/preview-file/);
    await expectAccessible(page, 'Share a link');
    await dialog.getByRole('button', { name: 'Done' }).click();

    // Found by a word inside it, from the header search.
    if (width === 'phone') await page.getByRole('button', { name: 'Open search' }).click();
    const search = page.getByRole('combobox', { name: 'Search files' });
    await expect(async () => {
      await search.fill(word);
      await search.press('Enter');
      await expect(page.getByRole('link', { name: `invoice-${stamp}.txt` }).first()).toBeVisible({
        timeout: 2_000,
      });
    }).toPass({ timeout: 60_000 });
    await expectAccessible(page, 'Search results');
    // The search, saved by name and pinned to the dashboard.
    await page.getByRole('button', { name: 'Save view…' }).click();
    dialog = page.getByRole('dialog', { name: 'Save view' });
    await dialog.getByLabel('Name').fill(`Quillwort ${stamp}`);
    await dialog.getByRole('checkbox', { name: 'Pin to dashboard' }).check({ force: true });
    await expectAccessible(page, 'Save view');
    await dialog.getByRole('button', { name: 'Save view' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'View saved' })).toBeVisible();
    await expect(page.getByRole('region', { name: 'Saved views' })).toContainText(`Quillwort ${stamp}`);
    await page
      .getByRole('link', { name: `invoice-${stamp}.txt` })
      .first()
      .click();
    await expect(page.getByRole('heading', { level: 1, name: `invoice-${stamp}.txt` })).toBeVisible();

    // Deleted, then restored from My deleted files.
    await page.getByRole('toolbar', { name: 'File actions' }).getByRole('button', { name: 'Delete' }).click();
    dialog = page.getByRole('dialog', { name: 'Move to the trash?' });
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await expect(page.getByRole('heading', { level: 1, name: place.archive.name })).toBeVisible();
    await openSection(page, 'My deleted files');
    await expectAccessible(page, 'My deleted files');
    await page.getByRole('button', { name: `Restore invoice-${stamp}.txt` }).click();
    dialog = page.getByRole('dialog', { name: `Restore invoice-${stamp}.txt?` });
    await dialog.getByRole('button', { name: 'Restore' }).click();
    await expect(page.getByRole('row', { name: new RegExp(`invoice-${stamp}`) })).toHaveCount(0);

    // The receipt, indexed too; then both moved at once, from the search results.
    await openSection(page, 'Unindexed files');
    await page.getByRole('button', { name: `Index receipt-${stamp}.txt` }).click();
    const receipt = page.getByRole('form', { name: new RegExp(`receipt-${stamp}`) });
    await receipt.getByRole('combobox', { name: new RegExp(place.field) }).fill('Appr');
    await page.getByRole('option', { name: 'Approved' }).click();
    await receipt.getByRole('button', { name: 'Save and index' }).click();
    await expect(page.getByRole('row', { name: new RegExp(`receipt-${stamp}`) })).toHaveCount(0);
    if (width === 'phone') await page.getByRole('button', { name: 'Open search' }).click();
    await search.fill(stamp);
    await search.press('Enter');
    const found = page.getByRole('grid', { name: 'Files found' });
    await expect(found.getByRole('row', { name: new RegExp(`receipt-${stamp}`) })).toBeVisible();
    // The checkbox a person clicks is drawn over the input (React Aria's visually hidden one).
    await found.getByRole('checkbox', { name: `Select invoice-${stamp}.txt` }).check({ force: true });
    await found.getByRole('checkbox', { name: `Select receipt-${stamp}.txt` }).check({ force: true });
    await page.getByRole('button', { name: 'Move…' }).click();
    dialog = page.getByRole('dialog', { name: 'Move 2 files' });
    await dialog.getByLabel('Move to category').selectOption({ label: place.archive.name });
    await expectAccessible(page, 'Bulk move');
    await dialog.getByRole('button', { name: 'Move', exact: true }).click();
    await expect(dialog).toBeHidden();

    // The archive holds both.
    await openCategory(page, place.archive.name);
    const archive = page.getByRole('grid', { name: 'Files' });
    await expect(archive.getByRole('row', { name: new RegExp(`receipt-${stamp}`) })).toBeVisible();
    await expect(archive.getByRole('row', { name: new RegExp(`invoice-${stamp}`) })).toBeVisible();

    // The pinned view, from the dashboard, finds the invoice again.
    await openSection(page, 'Dashboard');
    const pinned = page.getByRole('region', { name: 'Pinned views' });
    await expectAccessible(page, 'Dashboard with a pinned view');
    await pinned.getByRole('link', { name: new RegExp(`Quillwort ${stamp}`) }).click();
    await expect(page.getByRole('link', { name: `invoice-${stamp}.txt` }).first()).toBeVisible();

    // The rest of a staff member's own lists, each checked.
    await walkSections(page, [{ link: 'Checked out' }, { link: 'Favourites' }, { link: 'Notifications' }], {
      narrow: width === 'phone',
    });
  });
}
