import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { expect, type Page, test } from '@playwright/test';
import { E2E_ADMIN } from '../playwright.config.js';
import { adminToken, createGeneralStaff, type JourneyUser, signIn, signOut } from './journey-api.js';
import { decoded, startSmtp } from './smtp.js';
import { expectAccessible, openSection } from './walk.js';

// An admin designs a two-step approval for a category, with a PRE condition on a metadata
// value; a file indexed there starts the run by its trigger; the first assignee approves,
// the second rejects back to step one; the notifications and e-mails arrive; the history
// shows it all.
//
// The category, the metadata field and the indexed file are made by test/journey-data.ts
// with the API tests' factories (the catalog and files areas' calls are not on this branch);
// the file's `indexed` event is emitted as the files area does, and the server's own job
// worker starts the run.

const stamp = Date.now().toString(36);
const apiDir = path.resolve(import.meta.dirname, '../../apps/api');

/**
 * Fills the designer's New step form with the step's name (`heading` is "1. Check"), adds it,
 * and gives it its one assignee.
 */
async function addStep(page: Page, heading: string, assignee: string) {
  const name = heading.replace(/^\d+\. /, '');
  const newStep = page.getByRole('region', { name: 'New step' });
  await newStep.getByLabel('Name').fill(name);
  await newStep.getByRole('button', { name: 'Add step' }).click();
  await expect(page.getByRole('heading', { level: 2, name: heading })).toBeVisible();
  await page.getByRole('tab', { name: /Assignees/ }).click();
  await pick(page, page.getByRole('tabpanel'), 'Users', assignee);
  await page.getByRole('button', { name: 'Save assignees' }).click();
  await expect(page.getByRole('list', { name: `Assignees of ${name}` })).toContainText(assignee);
}

/** Adds the open step's notification as it comes (a file enters the step). */
async function notifyOnEntry(page: Page, step: string) {
  await page.getByRole('tab', { name: /Notifications/ }).click();
  await page.getByRole('button', { name: 'Add notification' }).click();
  await page
    .getByRole('dialog', { name: 'New notification' })
    .getByRole('button', { name: 'Save notification' })
    .click();
  await expect(page.getByRole('list', { name: `Notifications of ${step}` })).toContainText(
    'A file enters the step',
  );
}

function journeyData<T>(command: object): T {
  const out = execFileSync('node', ['--import', 'tsx', 'test/journey-data.ts', JSON.stringify(command)], {
    cwd: apiDir,
    env: { ...process.env, DATA_DIR: process.env.QUIRE_E2E_DATA_DIR, LOG_LEVEL: 'silent' },
    encoding: 'utf8',
  });
  return JSON.parse(out.trim().split('\n').at(-1) ?? 'null') as T;
}

/** Picks an option in a type-ahead picker. */
async function pick(page: Page, scope: ReturnType<Page['getByRole']>, label: string, text: string) {
  await scope.getByRole('combobox', { name: label }).fill(text.slice(0, 6));
  await page
    .getByRole('option', { name: new RegExp(text) })
    .first()
    .click();
  await page.keyboard.press('Escape');
}

test('a two-step approval: designed, started by indexing, approved, rejected back, told and recorded', async ({
  page,
  request,
}) => {
  test.setTimeout(300_000);
  const smtp = await startSmtp();
  try {
    const token = await adminToken(request);
    const auth = { Authorization: `Bearer ${token}` };
    const setup = await request.post('/api/email/setup', {
      headers: auth,
      data: {
        host: '127.0.0.1',
        port: smtp.port,
        security: 'none',
        from_address: 'quire@example.test',
        from_name: 'Quire',
      },
    });
    expect(setup.status(), await setup.text()).toBe(200);
    const alice: JourneyUser = await createGeneralStaff(request, token, 'alice');
    const bob: JourneyUser = await createGeneralStaff(request, token, 'bob');
    const { category_id, field_id } = journeyData<{ category_id: number; field_id: number }>({
      do: 'setup',
      category: `Invoices ${stamp}`,
      field: `Amount ${stamp}`,
      viewers: [alice.username, bob.username],
    });
    const workflowName = `Invoice approval ${stamp}`;

    // --- The admin designs the workflow. ---
    await signIn(page, E2E_ADMIN.username, E2E_ADMIN.password, 'admin');
    await openSection(page, 'Workflows');
    await page.getByRole('button', { name: 'New workflow' }).click();
    const create = page.getByRole('dialog', { name: 'New workflow' });
    await create.getByLabel('Name').fill(workflowName);
    await pick(page, create, 'Categories it serves', `Invoices ${stamp}`);
    await create.getByRole('button', { name: 'Create workflow' }).click();
    await expect(page.getByRole('heading', { level: 1, name: workflowName })).toBeVisible();

    // Step 1: Check, by Alice, entered only when Amount > 100, started by indexing.
    await addStep(page, '1. Check', 'Journey alice');
    await page.getByRole('tab', { name: /Conditions/ }).click();
    await page.getByRole('button', { name: 'Add condition to enter' }).click();
    const condition = page.getByRole('dialog', { name: 'New condition to enter' });
    await condition.getByLabel('Field').selectOption(String(field_id));
    await condition.getByLabel('Comparison').selectOption('gt');
    await condition.getByLabel('Value').fill('100');
    await condition.getByRole('button', { name: 'Save condition' }).click();
    await expect(page.getByRole('list', { name: 'To enter the step (PRE)' })).toContainText(
      `Amount ${stamp} is greater than 100`,
    );
    await page.getByRole('tab', { name: /Triggers/ }).click();
    await page.getByRole('button', { name: 'Add trigger' }).click();
    await page
      .getByRole('dialog', { name: 'New trigger' })
      .getByRole('button', { name: 'Save trigger' })
      .click();
    await expect(page.getByRole('list', { name: 'Triggers of Check' })).toContainText('indexed');
    await notifyOnEntry(page, 'Check');

    // Step 2: Sign, by Bob; a rejection goes back to the previous step (the default).
    await page.getByRole('button', { name: 'Add step' }).click();
    await addStep(page, '2. Sign', 'Journey bob');
    await notifyOnEntry(page, 'Sign');

    // The drawing: Check approves to Sign; Sign rejects to Check.
    await expect(page.getByText(/Sign: approved, to End; rejected, to Check\./)).toBeAttached();
    await expectAccessible(page, 'Workflow designer');
    await page.getByRole('button', { name: 'Activate' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Workflow activated' })).toBeVisible();
    await signOut(page);

    // --- A file indexed into the category starts the run by its trigger; a small one does not. ---
    const { file_id } = journeyData<{ file_id: number }>({
      do: 'index',
      category_id,
      owner: E2E_ADMIN.username,
      name: `invoice-${stamp}.pdf`,
      values: [{ field_id, value: 500 }],
    });
    journeyData({
      do: 'index',
      category_id,
      owner: E2E_ADMIN.username,
      name: `petty-${stamp}.pdf`,
      values: [{ field_id, value: 20 }],
    });

    // --- Alice approves. ---
    await signIn(page, alice.username, alice.password, 'user');
    await openSection(page, 'Assigned to me');
    await expect(async () => {
      await page.reload();
      await expect(page.getByRole('row', { name: new RegExp(`invoice-${stamp}`) })).toBeVisible({
        timeout: 2_000,
      });
    }).toPass({ timeout: 30_000 });
    await expect(page.getByRole('row', { name: new RegExp(`petty-${stamp}`) })).toHaveCount(0);
    await expectAccessible(page, 'Assigned to me');
    await page.getByRole('button', { name: `Approve invoice-${stamp}.pdf` }).click();
    const approve = page.getByRole('dialog', { name: 'Approve Check' });
    await approve.getByLabel(/Comment/).fill('Totals checked');
    await expectAccessible(page, 'Approve dialog');
    await approve.getByRole('button', { name: 'Approve' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Step approved' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Nothing waits on you' })).toBeVisible();
    await signOut(page);

    // --- Bob rejects, back to Check. ---
    await signIn(page, bob.username, bob.password, 'user');
    await openSection(page, 'Assigned to me');
    await page.getByRole('button', { name: `Reject invoice-${stamp}.pdf` }).click();
    const reject = page.getByRole('dialog', { name: 'Reject Sign' });
    await reject.getByLabel(/Comment/).fill('The VAT number is missing');
    await reject.getByRole('button', { name: 'Reject' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Step rejected' })).toBeVisible();
    await signOut(page);

    // --- Alice has it again, and its history shows every move. ---
    await signIn(page, alice.username, alice.password, 'user');
    await openSection(page, 'Assigned to me');
    // The file's page shows where it stands in the workflow, with every move.
    await page.getByRole('link', { name: `invoice-${stamp}.pdf` }).click();
    const history = page
      .getByRole('region', { name: 'Workflow' })
      .getByRole('list', { name: 'Workflow history, newest first' });
    const items = history.getByRole('listitem');
    await expect(items).toHaveCount(3);
    await expect(items.nth(0)).toContainText('Rejected from Sign to Check');
    await expect(items.nth(0)).toContainText('The VAT number is missing');
    await expect(items.nth(1)).toContainText('Approved from Check to Sign');
    await expect(items.nth(1)).toContainText('Totals checked');
    await expect(items.nth(2)).toContainText('Started into Check');
    await expectAccessible(page, 'File page in a workflow');

    // --- Told in the app and by e-mail: Alice twice (entered Check twice), Bob once. ---
    const subject = (step: string) => `"invoice-${stamp}.pdf" is waiting in "${step}"`;
    await expect
      .poll(() =>
        journeyData<Array<{ title: string }>>({ do: 'notifications', username: alice.username, file_id }).map(
          (n) => n.title,
        ),
      )
      .toEqual([subject('Check'), subject('Check')]);
    await expect
      .poll(() =>
        journeyData<Array<{ title: string }>>({ do: 'notifications', username: bob.username, file_id }).map(
          (n) => n.title,
        ),
      )
      .toEqual([subject('Sign')]);
    const mailsTo = (user: JourneyUser) =>
      smtp.messages.filter(
        (m) => m.to.includes(user.email.toLowerCase()) && decoded(m.raw).includes(`invoice-${stamp}.pdf`),
      );
    await expect.poll(() => mailsTo(alice).length, { timeout: 30_000 }).toBe(2);
    await expect.poll(() => mailsTo(bob).length, { timeout: 30_000 }).toBe(1);
    expect(decoded(mailsTo(bob)[0]?.raw ?? '')).toContain(`/files/${file_id}`);
  } finally {
    await smtp.close();
  }
});
