import { expect, test } from '@playwright/test';
import { E2E_ADMIN } from '../playwright.config.js';
import { adminToken } from './journey-api.js';
import { expectAccessible, openCategory, openSection, signInAs } from './walk.js';

// Retention and legal hold, end to end in Chromium (issue 27): the admin sets a category's
// rule (a month from a contract's end date, then the trash), puts a file on legal hold, is
// refused its deletion with the hold's reason, releases the hold, runs the retention scan and
// approves the file's disposition. Every new screen is reached by clicking and checked by axe.

const stamp = Date.now().toString(36);
const REASON = `Dispute ${stamp} with Northwind: keep every record`;

test('a rule, a legal hold that refuses a delete, its release, a disposition approved', async ({
  page,
  request,
}) => {
  test.setTimeout(300_000);
  // Set-up through the API: a date field, a category asking for it, and a contract in it
  // whose end date is long past.
  const token = await adminToken(request);
  const headers = { Authorization: `Bearer ${token}` };
  const post = async (path: string, data: object) => {
    const response = await request.post(path, { headers, data });
    expect(response.status(), await response.text()).toBeLessThan(300);
    return (await response.json()).data;
  };
  const fieldName = `Contract end ${stamp}`;
  const category = `Contracts ${stamp}`;
  const fileName = `lease-${stamp}.txt`;
  const field = await post('/api/store_user_field', { name: fieldName, type: 'date' });
  const folder = await post('/api/storeFolder', { name: category, fields: [{ field_id: field.id }] });
  const uploaded = await request.post('/api/new-upload', {
    headers,
    multipart: {
      folder_id: String(folder.id),
      file: {
        name: fileName,
        mimeType: 'text/plain',
        buffer: Buffer.from('The lease of the Harbour Street office\n'),
      },
    },
  });
  expect(uploaded.status(), await uploaded.text()).toBe(200);
  const fileId = (await uploaded.json()).data.files[0].id as number;
  await post('/api/submitmetas', { file_id: fileId, values: [{ field_id: field.id, value: '2020-01-31' }] });

  await signInAs(page, E2E_ADMIN, 'admin', /\/admin\/category$/);

  // The rule: a month from the contract's end, then the trash.
  await openSection(page, 'Retention');
  await expect(page.getByRole('heading', { name: 'No retention rules yet' })).toBeVisible();
  await expectAccessible(page, 'Retention rules (empty)');
  const ruleForm = page.getByRole('form', { name: "Set a category's rule" });
  await ruleForm.getByLabel('Category').selectOption({ label: category });
  await ruleForm.getByLabel('Keep for').fill('1');
  await ruleForm.getByLabel('Unit').selectOption('months');
  await ruleForm.getByLabel('Counted from').selectOption('field_date');
  await ruleForm.getByLabel('Date field').selectOption({ label: fieldName });
  await ruleForm.getByLabel('Then').selectOption('trash');
  await ruleForm.getByRole('button', { name: 'Save rule' }).click();
  const summary = `Keep 1 month from its "${fieldName}" date, then move to the trash`;
  await expect(page.getByRole('row', { name: new RegExp(category) })).toContainText(summary);
  await expectAccessible(page, 'Retention rules');

  // The hold on the file, chosen in its category.
  await page
    .getByRole('navigation', { name: 'Retention' })
    .getByRole('link', { name: 'Legal holds' })
    .click();
  await expect(page.getByRole('heading', { level: 1, name: 'Legal holds' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'No legal holds in force' })).toBeVisible();
  await expectAccessible(page, 'Legal holds (empty)');
  const holdForm = page.getByRole('form', { name: 'Put on legal hold' });
  await holdForm.getByLabel('In category').selectOption({ label: category });
  await holdForm.getByLabel('File', { exact: true }).selectOption({ label: fileName });
  await holdForm.getByLabel('Reason').fill(REASON);
  await holdForm.getByRole('button', { name: 'Set legal hold' }).click();
  await expect(page.getByRole('row', { name: new RegExp(fileName) })).toContainText(REASON);
  await expectAccessible(page, 'Legal holds');

  // Its deletion is refused, with the hold's reason.
  await openCategory(page, category);
  await page.getByRole('link', { name: fileName }).click();
  await expect(page.getByRole('heading', { level: 1, name: fileName })).toBeVisible();
  await page.getByRole('button', { name: 'Delete' }).click();
  const trash = page.getByRole('dialog', { name: 'Move to the trash?' });
  await trash.getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText(REASON).first()).toBeVisible();
  await trash.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByRole('heading', { level: 1, name: fileName })).toBeVisible();

  // The release, with its reason.
  await openSection(page, 'Retention');
  await page
    .getByRole('navigation', { name: 'Retention' })
    .getByRole('link', { name: 'Legal holds' })
    .click();
  await page.getByRole('button', { name: `Release the hold on ${fileName}` }).click();
  const release = page.getByRole('dialog', { name: `Release the hold on ${fileName}?` });
  await release.getByLabel('Why is it released?').fill('The dispute is settled');
  await expectAccessible(page, 'Release a legal hold');
  await release.getByRole('button', { name: 'Release hold' }).click();
  await expect(page.getByText('Legal hold released')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'No legal holds in force' })).toBeVisible();

  // The scan lists the contract as due; its disposition is approved after a confirmation.
  await page
    .getByRole('navigation', { name: 'Retention' })
    .getByRole('link', { name: 'Dispositions' })
    .click();
  await expect(page.getByRole('heading', { level: 1, name: 'Dispositions' })).toBeVisible();
  await expectAccessible(page, 'Dispositions');
  await page.getByRole('button', { name: 'Scan now' }).click();
  await expect(page.getByText(/newly due/)).toBeVisible();
  const row = page.getByRole('row', { name: new RegExp(fileName) });
  await expect(row).toContainText(summary);
  await expectAccessible(page, 'Dispositions (due)');
  await row.getByRole('button', { name: `Approve ${fileName}` }).click();
  const approve = page.getByRole('dialog', { name: `Approve the disposition of ${fileName}?` });
  await expect(approve).toContainText('1 file is moved to the trash');
  await approve.getByRole('button', { name: 'Approve' }).click();
  await expect(page.getByText('Dispositions approved')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Nothing is due' })).toBeVisible();

  // The file is in the trash now.
  await openSection(page, 'Trash');
  await expect(page.getByRole('row', { name: new RegExp(fileName) })).toBeVisible();
});
