import { mkdir, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { textPdf } from '../../apps/api/test/documents.js';
import { E2E_ADMIN } from '../playwright.config.js';
import { adminToken, createJourneyUser, signOut } from './journey-api.js';
import { expectAccessible, openSection, searchFromHeader, signInAs } from './walk.js';

// Intake without the browser, end to end (issue 28): the admin opens Intake from the
// navigation, adds a watched folder bound to a category, a PDF is copied into that folder on
// the server, and the admin sees it arrive (filed by the source), finds it by a word inside
// it, and the folder has moved it to done/. A rule that leaves memos unindexed for a group is
// added from the form with its person-or-group choice; a memo dropped beside the PDF is left
// for the group, and a member of it, who may not view the category, signs in, opens their
// unindexed files and indexes it. Each screen is checked by axe.

const stamp = Date.now().toString(36);
const word = `quillomantic${stamp}`;

test('a PDF copied into a watched folder is filed and found', async ({ page, request }) => {
  test.setTimeout(240_000);
  const token = await adminToken(request);
  const headers = { Authorization: `Bearer ${token}` };
  const categoryName = `Scans ${stamp}`;
  const created = await request.post('/api/storeFolder', { headers, data: { name: categoryName } });
  expect(created.status(), await created.text()).toBe(200);
  const me = (await (await request.get('/api/user/current', { headers })).json()).data;
  const member = await createJourneyUser(request, token, 'postroom');
  const groupName = `Post room ${stamp}`;
  const group = await request.post('/api/create_group', {
    headers,
    data: { name: groupName, user_ids: [me.id, member.id] },
  });
  expect(group.status(), await group.text()).toBe(200);
  // The server allows folders under DATA_DIR/intake (INTAKE_FOLDERS' default).
  const dataDir = process.env.QUIRE_E2E_DATA_DIR as string;
  const folder = path.join(dataDir, 'intake', `scanner-${stamp}`);

  await signInAs(page, E2E_ADMIN, 'admin', /\/admin\/category$/);
  await openSection(page, 'Intake');
  await expect(page.getByText('No sources yet. Add a watched folder below.')).toBeVisible();
  await expectAccessible(page, 'Intake (empty)');

  const form = page.getByRole('form', { name: 'Watch a folder' });
  await form.getByLabel('Name', { exact: true }).fill(`Scanner ${stamp}`);
  await form.getByLabel('Folder on the server').fill(folder);
  await form.getByLabel('Category', { exact: true }).selectOption({ label: categoryName });
  await form.getByLabel('Owner', { exact: true }).selectOption(String(me.id));
  await expect(form.getByRole('radio', { name: 'Indexed into the category' })).toBeChecked();
  await form.getByRole('button', { name: 'Add folder' }).click();
  const sources = page.getByRole('table', { name: 'Intake sources' });
  await expect(sources.getByRole('row', { name: new RegExp(`Scanner ${stamp}`) })).toContainText(folder);

  // A rule for memos: left unindexed for the post room, chosen on the form.
  const ruleForm = page.getByRole('form', { name: 'Add a rule' });
  await ruleForm.getByLabel('Name', { exact: true }).fill(`Memos ${stamp}`);
  await ruleForm.getByLabel('File name (optional)').fill('memo-*.pdf');
  await ruleForm.getByRole('radio', { name: /Left unindexed for a group/ }).check();
  await ruleForm.getByLabel('Group', { exact: true }).selectOption({ label: groupName });
  await ruleForm.getByRole('button', { name: 'Add rule' }).click();
  const rules = page.getByRole('table', { name: 'Intake rules' });
  await expect(rules.getByRole('row', { name: new RegExp(`Memos ${stamp}`) })).toContainText(
    `leave unindexed for group "${groupName}"`,
  );

  // A scanner drops a PDF into the folder.
  const fileName = `letter-${stamp}.pdf`;
  await mkdir(folder, { recursive: true });
  await writeFile(path.join(folder, fileName), textPdf(['Dear reader,', `The ${word} order has shipped.`]));
  const memoName = `memo-${stamp}.pdf`;
  await writeFile(path.join(folder, memoName), textPdf(['Memo', 'For the post room.']));

  // Two looks five seconds apart see it unchanged: taken, filed, listed (the lists refresh).
  const arrivals = page.getByRole('table', { name: 'Recent arrivals' });
  await expect(arrivals.getByRole('row', { name: new RegExp(fileName) })).toContainText('Taken', {
    timeout: 90_000,
  });
  await expect(arrivals.getByRole('row', { name: new RegExp(fileName) })).toContainText('No rule', {
    timeout: 60_000,
  });
  await expect(arrivals.getByRole('row', { name: new RegExp(memoName) })).toContainText(`Memos ${stamp}`, {
    timeout: 60_000,
  });
  await expect(sources.getByRole('row', { name: new RegExp(`Scanner ${stamp}`) })).toContainText('Watching');
  await expectAccessible(page, 'Intake');
  expect((await readdir(path.join(folder, 'done'))).sort()).toEqual([fileName, memoName].sort());

  // Filed into its category, and found by a word of its content.
  const results = page.getByRole('grid', { name: 'Files found' });
  await expect(async () => {
    await searchFromHeader(page, word);
    await expect(results.getByRole('row', { name: new RegExp(fileName) })).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 90_000 });
  await expect(results.getByRole('row', { name: new RegExp(fileName) })).toContainText(categoryName);

  // A member of the post room, without any right on the category, indexes the memo left for it.
  await signOut(page);
  await signInAs(page, member, 'user', /\/dashboard$/);
  await openSection(page, 'Unindexed files');
  await page.getByRole('button', { name: `Index ${memoName}` }).click();
  const indexForm = page.getByRole('form', { name: `Index ${memoName}` });
  await expect(indexForm.getByRole('button', { name: 'Save and index' })).toBeVisible();
  await expectAccessible(page, "Unindexed files: the group's memo");
  await indexForm.getByRole('button', { name: 'Save and index' }).click();
  await expect(page.getByText(`${memoName} is now filed in ${categoryName}.`)).toBeVisible();
  await expect(page.getByRole('button', { name: `Index ${memoName}` })).toHaveCount(0);
});
