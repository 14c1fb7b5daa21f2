import type { TWorkflow } from '@quire/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestContext } from '../../../test/app.js';
import { type SeededUser, seed, seededApp } from '../../../test/seed.js';
import { startSmtpServer, type TestSmtpServer } from '../../../test/smtp.js';
import { api } from '../../../test/workflows.js';

// What an admin who only designs steps, picks categories and presses Activate gets (issue 22
// point 6): the workflow starts on the files indexed into its categories, and the assignees
// of a step are told, in the app and by e-mail, when a file enters it — without the admin
// finding the step's trigger or notification tabs.

let t: TestContext;
let smtp: TestSmtpServer;
let admin: string;
let owner: SeededUser;
let alice: SeededUser;

beforeAll(async () => {
  let companyAdmin: SeededUser;
  ({
    t,
    users: { companyAdmin, owner, alice },
  } = await seededApp(
    {
      users: {
        companyAdmin: { accessType: 'COMPANY ADMIN' },
        owner: { firstName: 'Olive', lastName: 'Owner' },
        alice: { firstName: 'Alice', lastName: 'Test', signIn: false },
      },
    },
    { SMTP_ALLOW_PRIVATE_HOSTS: 'true' },
  ));
  admin = companyAdmin.token;
  smtp = await startSmtpServer();
  await api(t, admin, {
    method: 'POST',
    url: '/api/email/setup',
    payload: { host: smtp.host, port: smtp.port, security: 'none', from_address: 'noreply@quire.test' },
  });
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});

const post = <T>(url: string, payload: object) => api<T>(t, admin, { method: 'POST', url, payload });

/** A draft workflow serving `categoryIds` whose one step has Alice as its assignee, and nothing else. */
async function draft(name: string, categoryIds: number[]) {
  const workflow = await post<TWorkflow>('/api/create_and_update_workflow', {
    name,
    category_ids: categoryIds,
  });
  const step = await post<{ id: number }>('/api/create_update_workflow_step', {
    workflow_id: workflow.id,
    name: 'Review',
  });
  await post('/api/update_assignee', { workflow_step_id: step.id, user_ids: [alice.id], group_ids: [] });
  return { id: workflow.id, name, stepId: step.id };
}

const activate = (w: { id: number; name: string }) =>
  post<TWorkflow>('/api/create_and_update_workflow', { id: w.id, name: w.name, status: 'active' });

/** Runs the due jobs until nothing is left to do (a file event queues a notify job, which queues mail). */
async function settleJobs() {
  for (let i = 0; i < 5; i++) await t.app.jobs.runDue();
}

describe('activating a workflow that serves categories', () => {
  it('starts it on a file indexed into one of them, and tells the assignee in the app and by e-mail', async () => {
    const { category } = (
      await seed(t, {
        users: { owner },
        categories: { category: { name: 'Invoices in', grants: { owner: ['upload', 'edit'] } } },
      })
    ).categories;
    const w = await draft('Invoice review', [category.id]);

    const active = await activate(w);
    expect(active.status).toBe('active');
    expect(active.steps[0]?.triggers).toEqual([expect.objectContaining({ kind: 'on_index', active: true })]);
    const added = await t.db.auditEvent.findFirst({
      where: { action: 'workflow.trigger_created', targetId: String(w.id) },
    });
    expect(added?.message).toBe(
      'Added a trigger (on_index) on step "Review" of workflow "Invoice review": activated, it starts on files indexed into "Invoices in"',
    );

    // The owner indexes a file into the category through the files area's call.
    const { file } = (
      await seed(t, { files: { file: { owner, category, name: 'march.pdf', indexed: false } } })
    ).files;
    const indexed = await t.app.inject({
      method: 'POST',
      url: '/api/submitmetas',
      headers: { authorization: `Bearer ${owner.token}` },
      payload: { file_id: file.id, values: [] },
    });
    expect(indexed.statusCode, indexed.body).toBe(200);
    await settleJobs();

    const run = await t.db.workflowInstance.findFirst({ where: { fileId: file.id } });
    expect(run).toMatchObject({ workflowId: w.id, currentStepId: w.stepId, status: 'running' });

    const told = await t.db.notification.findMany({ where: { userId: alice.id, fileId: file.id } });
    expect(told.map((n) => [n.kind, n.title, n.link])).toEqual([
      ['workflow.entered', '"march.pdf" is waiting in "Review"', `/files/${file.id}`],
    ]);
    const mail = await smtp.waitForMessage((m) => m.to.includes(alice.email.toLowerCase()));
    expect(mail.subject).toBe('"march.pdf" is waiting in "Review"');
    expect(mail.text).toContain(`/files/${file.id}`);
  });

  it('adds no second on-index trigger, and none to a workflow that serves no category', async () => {
    const { category } = (await seed(t, { categories: { category: {} } })).categories;
    const w = await draft('Has its own trigger', [category.id]);
    const step2 = await post<{ id: number }>('/api/create_update_workflow_step', {
      workflow_id: w.id,
      name: 'Sign',
    });
    await post('/api/update_assignee', { workflow_step_id: step2.id, user_ids: [alice.id], group_ids: [] });
    await post('/api/update_trigger', { workflow_step_id: step2.id, kind: 'on_index' });
    const active = await activate(w);
    expect(active.steps.map((s) => s.triggers.map((tr) => tr.kind))).toEqual([[], ['on_index']]);

    const nowhere = await draft('Serves nothing', []);
    expect((await activate(nowhere)).steps[0]?.triggers).toEqual([]);
  });
});
