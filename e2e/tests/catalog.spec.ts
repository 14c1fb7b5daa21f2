import { expect, test } from '@playwright/test';
import { E2E_ADMIN } from '../playwright.config.js';
import { adminToken, createGeneralStaff, signIn, signOut } from './journey-api.js';
import { expectAccessible, openSection } from './walk.js';

// The catalog, end to end in Chromium: a File Control admin makes a metadata field, a category
// with that field and a sub-category, grants one person view on the category; that person sees
// both categories (the sub-category inherits), another person sees none; deleting asks first.

const stamp = Date.now().toString(36);

test('fields, a category tree with rights, and who sees what', async ({ page, request }) => {
  test.setTimeout(180_000);
  const token = await adminToken(request);
  const reader = await createGeneralStaff(request, token, 'reader');
  const outsider = await createGeneralStaff(request, token, 'outsider');
  const parent = `Contracts ${stamp}`;
  const child = `Suppliers ${stamp}`;
  const field = `Contract number ${stamp}`;

  await signIn(page, E2E_ADMIN.username, E2E_ADMIN.password, 'admin');

  // A metadata field.
  await openSection(page, 'Metadata fields');
  await page.getByRole('button', { name: 'New field' }).click();
  const fieldDialog = page.getByRole('dialog', { name: 'New metadata field' });
  await fieldDialog.getByLabel('Name').fill(field);
  await fieldDialog.getByLabel('Type').selectOption('text');
  await expectAccessible(page, 'New metadata field');
  await fieldDialog.getByRole('button', { name: 'Create field' }).click();
  await expect(fieldDialog).toBeHidden();
  await expect(page.getByRole('row', { name: new RegExp(field) })).toBeVisible();

  // A category and a sub-category.
  await openSection(page, 'Categories');
  await page.getByRole('button', { name: 'New category' }).click();
  const create = page.getByRole('dialog', { name: 'New category' });
  await create.getByLabel('Name').fill(parent);
  await create.getByRole('button', { name: 'Create category' }).click();
  await expect(create).toBeHidden();
  const tree = page.getByRole('treegrid', { name: 'Categories' });
  await tree.getByRole('row', { name: new RegExp(parent) }).click();
  await expect(page.getByRole('heading', { level: 2, name: parent })).toBeVisible();
  await expectAccessible(page, 'Category admin with its detail panel');

  // Its settings: the field on its indexing form, and view for the reader.
  await page.getByRole('link', { name: 'Settings' }).click();
  await expect(page).toHaveURL(/\/admin\/category\/\d+$/);
  const fields = page.getByRole('region', { name: 'Metadata fields' });
  await fields.getByLabel('Add a field').selectOption({ label: `${field} (Text)` });
  await fields.getByRole('button', { name: 'Add' }).click();
  await fields.getByRole('button', { name: 'Save fields' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Fields saved' })).toBeVisible();
  await expect(fields.getByRole('table', { name: `Fields of ${parent}` })).toContainText(field);

  const rights = page.getByRole('region', { name: 'Rights' });
  await rights.getByRole('combobox', { name: 'People' }).fill(reader.username.slice(0, 8));
  await page
    .getByRole('option', { name: new RegExp(reader.username) })
    .first()
    .click();
  await page.keyboard.press('Escape');
  await expect(rights.getByRole('checkbox', { name: /may view \(always\)/ })).toBeChecked();
  await expectAccessible(page, 'Category settings');
  await rights.getByRole('button', { name: 'Save rights' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Rights saved' })).toBeVisible();

  // A sub-category, made from the tree (it takes the rights set above).
  await openSection(page, 'Categories');
  await tree.getByRole('row', { name: new RegExp(parent) }).click();
  await page.getByRole('button', { name: 'New sub-category' }).click();
  const sub = page.getByRole('dialog', { name: `New category in ${parent}` });
  await sub.getByLabel('Name').fill(child);
  await sub.getByRole('button', { name: 'Create category' }).click();
  await expect(sub).toBeHidden();

  // Deleting asks first, and says what goes with it; cancelling keeps everything.
  await tree
    .getByRole('row', { name: new RegExp(parent) })
    .first()
    .click();
  await page.getByRole('button', { name: `More actions for ${parent}` }).click();
  await page.getByRole('menuitem', { name: `Delete ${parent}` }).click();
  const confirm = page.getByRole('dialog', { name: new RegExp(`Delete ${parent}`) });
  await expect(confirm).toBeVisible();
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(confirm).toBeHidden();
  await expect(tree.getByRole('row', { name: new RegExp(parent) }).first()).toBeVisible();
  await signOut(page);

  // The reader sees the category and, inherited, its sub-category.
  await signIn(page, reader.username, reader.password, 'user');
  await openSection(page, 'Categories');
  const readerTree = page.getByRole('treegrid', { name: 'Categories' });
  await expect(readerTree.getByRole('row', { name: new RegExp(parent) })).toBeVisible();
  await readerTree.getByRole('row', { name: new RegExp(parent) }).click();
  await expect(page.getByRole('heading', { level: 2, name: parent })).toBeVisible();
  await signOut(page);

  // Someone without a grant sees neither.
  await signIn(page, outsider.username, outsider.password, 'user');
  await openSection(page, 'Categories');
  await expect(page.getByRole('heading', { name: 'Categories', level: 1 })).toBeVisible();
  await expect(page.getByText(parent)).toHaveCount(0);
  await expect(page.getByText(child)).toHaveCount(0);
});
