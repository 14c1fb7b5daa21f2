import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callAs } from '../../../test/access.js';
import type { TestContext } from '../../../test/app.js';
import { errorPaths } from '../../../test/errors.js';
import { createFile, loginAs, setFileValues } from '../../../test/factories.js';
import { uniqueName } from '../../../test/names.js';
import { type SeededUser, seed, seededApp } from '../../../test/seed.js';
import { api, designWorkflow, stageOf, startWorkflow, workflowCounts } from '../../../test/workflows.js';
import { CRON_NEVER_DUE } from '../../lib/jobs/schedules.js';

// The design calls: workflows, steps and each step's details, with bad input (400, nothing
// written), unknown ids (404) and deletions refused while running files use them (409).

let t: TestContext;
let admin: string;
let adminId: number;
let staff: SeededUser;
let numberField: { id: number; name: string };
let textField: { id: number };
let dateField: { id: number };
let selectField: { id: number };

beforeAll(async () => {
  const world = await seededApp({
    users: {
      admin: { accessType: 'File Control Admin' },
      staff: { firstName: 'Sam', lastName: 'Staff', signIn: false },
    },
    fields: {
      amount: { name: 'Amount', type: 'number' },
      reference: { name: 'Reference', type: 'text' },
      payBy: { name: 'Pay by', type: 'date' },
      kind: { name: 'Kind', type: 'select', items: ['Invoice', 'Receipt'] },
    },
  });
  ({
    t,
    users: { staff },
  } = world);
  ({ id: adminId, token: admin } = world.users.admin);
  ({ amount: numberField, reference: textField, payBy: dateField, kind: selectField } = world.fields);
});
afterAll(() => t.close());

const call = (opts: InjectOptions) => callAs(t, admin, opts);
const post = (url: string, payload: unknown) => call({ method: 'POST', url, payload: payload as object });
const del = (url: string) => call({ method: 'DELETE', url });
const get = (url: string) => call({ method: 'GET', url });

async function newWorkflow(extra: object = {}) {
  const res = await post('/api/create_and_update_workflow', { name: uniqueName('Flow'), ...extra });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as { id: number; name: string };
}

async function newStep(workflowId: number, extra: object = {}) {
  const res = await post('/api/create_update_workflow_step', {
    workflow_id: workflowId,
    name: uniqueName('Step'),
    ...extra,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as { id: number; position: number };
}

/** Expects a POST of `payload` to `url` to answer 400 naming `path`, with nothing written. */
async function expect400(url: string, payload: object, path: string) {
  const before = await workflowCounts(t);
  const res = await call({ method: 'POST', url, payload });
  expect(res.statusCode, res.body).toBe(400);
  expect(errorPaths(res)).toContain(path);
  expect(await workflowCounts(t)).toEqual(before);
  return res.json();
}

/** `expect400` for each case (a payload and the path its refusal names) in turn: their answers. */
async function expect400Each(url: string, cases: ReadonlyArray<readonly [object, string]>) {
  const answers = [];
  for (const [payload, path] of cases) answers.push(await expect400(url, payload, path));
  return answers;
}

describe('POST /api/create_and_update_workflow', () => {
  it('creates a draft workflow serving categories, and audits it', async () => {
    const {
      categories: { category },
    } = await seed(t, { categories: { category: {} } });
    const name = uniqueName('Invoices');
    const res = await post('/api/create_and_update_workflow', {
      name: `  ${name} `,
      description: 'Two signatures',
      category_ids: [category.id],
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe('Workflow created');
    const data = res.json().data;
    expect(data).toMatchObject({
      name,
      description: 'Two signatures',
      status: 'draft',
      step_count: 0,
      categories: [{ id: category.id, name: category.name }],
      running_count: 0,
      steps: [],
      fields: [],
    });
    const event = await t.db.auditEvent.findFirst({
      where: { action: 'workflow.created', targetId: String(data.id) },
    });
    expect(event?.userId).toBe(adminId);
    const folders = await get('/api/folders/workflow');
    expect(folders.json().data.find((c: { id: number }) => c.id === category.id).workflow).toEqual({
      id: data.id,
      name,
      status: 'draft',
    });
  });

  it('updates by id: a category taken from another workflow moves over, the old one loses it', async () => {
    const {
      categories: { category },
    } = await seed(t, { categories: { category: {} } });
    const first = await newWorkflow({ category_ids: [category.id] });
    const second = await newWorkflow();
    const res = await post('/api/create_and_update_workflow', {
      id: second.id,
      name: second.name,
      category_ids: [category.id],
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe('Workflow updated');
    expect(res.json().data.categories.map((c: { id: number }) => c.id)).toEqual([category.id]);
    expect((await get(`/api/view_workflow/${first.id}`)).json().data.categories).toEqual([]);
  });

  it('refuses a taken name in any case, unknown categories and a bad shape (400), writing nothing', async () => {
    const existing = await newWorkflow();
    await expect400Each('/api/create_and_update_workflow', [
      [{ name: existing.name.toUpperCase() }, 'body.name'],
      [{ name: uniqueName('Flow'), category_ids: [999999] }, 'body.category_ids'],
      [{ name: ' ', status: 'live' }, 'body.status'],
    ]);
  });

  it('answers 404 for an unknown id', async () => {
    const res = await post('/api/create_and_update_workflow', { id: 999999, name: uniqueName('Flow') });
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toBe('Workflow not found');
  });

  it('refuses to activate a workflow without steps, or with a step nobody can move', async () => {
    const w = await newWorkflow();
    const payload = { id: w.id, name: w.name, status: 'active' };
    const none = await expect400('/api/create_and_update_workflow', payload, 'body.status');
    expect(none.message).toBe('Add at least one step before activating the workflow');
    const step = await newStep(w.id, { name: 'Review' });
    const stuck = await expect400('/api/create_and_update_workflow', payload, 'body.status');
    expect(stuck.message).toBe('Give "Review" an assignee or a trigger before activating the workflow');
    await post('/api/update_assignee', { workflow_step_id: step.id, user_ids: [staff.id] });
    const ok = await post('/api/create_and_update_workflow', payload);
    expect(ok.statusCode).toBe(200);
    expect(ok.json().data.status).toBe('active');
  });
});

describe('the workflow lists', () => {
  it('GET /api/workflow/index pages every workflow by name, with search and status', async () => {
    const marker = `Zebra ${Date.now().toString(36)}`;
    const a = await newWorkflow({ name: `${marker} A` });
    await newWorkflow({ name: `${marker} B` });
    const page = await get(`/api/workflow/index?search=${encodeURIComponent(marker)}&quantity=1&page=2`);
    expect(page.statusCode).toBe(200);
    expect(page.json().data).toMatchObject({ page: 2, quantity: 1, total: 2, last_page: 2 });
    expect(page.json().data.items.map((w: { name: string }) => w.name)).toEqual([`${marker} B`]);
    const drafts = await get(`/api/workflow/index?status=active&search=${encodeURIComponent(marker)}`);
    expect(drafts.json().data.total).toBe(0);
    expect((await get(`/api/view_workflow/${a.id}`)).json().data.name).toBe(`${marker} A`);
  });

  it('GET /api/workflows lists only active workflows, for anyone signed in', async () => {
    const draft = await newWorkflow();
    const active = await designWorkflow(t, admin, { steps: [{ name: 'Only', users: [staff.id] }] });
    const { users } = await seed(t, { users: { someone: {} } });
    const res = await callAs(t, users.someone.token, { method: 'GET', url: '/api/workflows' });
    expect(res.statusCode).toBe(200);
    const ids = res.json().data.map((w: { id: number }) => w.id);
    expect(ids).toContain(active.id);
    expect(ids).not.toContain(draft.id);
  });

  it('GET /api/workflows names only the categories the caller may view', async () => {
    const {
      users: { reader },
      categories: { seen, hidden },
    } = await seed(t, {
      users: { reader: {} },
      categories: {
        seen: { name: uniqueName('Seen'), grants: { reader: [] } },
        hidden: { name: uniqueName('Board minutes') },
      },
    });
    const w = await designWorkflow(t, admin, {
      steps: [{ name: 'Only', users: [staff.id] }],
      categoryIds: [seen.id, hidden.id],
    });
    const res = await callAs(t, reader.token, { method: 'GET', url: '/api/workflows' });
    expect(res.statusCode).toBe(200);
    const mine = res.json().data.find((x: { id: number }) => x.id === w.id);
    expect(mine.categories).toEqual([{ id: seen.id, name: seen.name }]);
    expect(res.body).not.toContain(hidden.name);
    // A File Control admin reads every category: both are named.
    const all = (await get('/api/workflows')).json().data.find((x: { id: number }) => x.id === w.id);
    expect(all.categories.map((c: { id: number }) => c.id).sort()).toEqual([seen.id, hidden.id].sort());
  });

  it('GET /api/view_workflow/{id} answers 404 for an unknown workflow', async () => {
    expect((await get('/api/view_workflow/999999')).statusCode).toBe(404);
  });
});

describe('steps', () => {
  it('adds steps in order, inserts at a position and moves one by drag (the others shift)', async () => {
    const w = await newWorkflow();
    const a = await newStep(w.id, { name: 'A' });
    const b = await newStep(w.id, { name: 'B' });
    const c = await newStep(w.id, { name: 'C', position: 1 });
    const order = async () =>
      (await get(`/api/view_workflow/${w.id}`))
        .json()
        .data.steps.map((s: { name: string; position: number }) => `${s.position}${s.name}`);
    expect(await order()).toEqual(['1C', '2A', '3B']);
    const moved = await post('/api/create_update_workflow_step', {
      id: b.id,
      workflow_id: w.id,
      name: 'B',
      position: 1,
    });
    expect(moved.statusCode).toBe(200);
    expect(await order()).toEqual(['1B', '2C', '3A']);
    expect(a.position).toBe(1);
    expect(c.position).toBe(1);
    const audit = await t.db.auditEvent.findFirst({
      where: { action: 'workflow.step_updated', targetId: String(w.id) },
    });
    expect(audit?.message).toContain('Updated step "B"');
  });

  it('keeps completion, quorum and routes; get_step shows the step with its details', async () => {
    const w = await newWorkflow();
    const first = await newStep(w.id, { name: 'First' });
    const step = await newStep(w.id, {
      name: 'Board',
      due_hours: 48,
      completion: 'quorum',
      quorum: 2,
      on_reject: 'step',
      on_reject_step_id: first.id,
      on_approve: 'end',
    });
    const res = await get(`/api/get_step/${step.id}`);
    expect(res.json().data).toMatchObject({
      name: 'Board',
      position: 2,
      due_hours: 48,
      completion: 'quorum',
      quorum: 2,
      on_approve: 'end',
      on_approve_step_id: null,
      on_reject: 'step',
      on_reject_step_id: first.id,
      running_count: 0,
      assignees: [],
    });
    const any = await post('/api/create_update_workflow_step', {
      id: step.id,
      workflow_id: w.id,
      name: 'Board',
      completion: 'any',
    });
    expect(any.json().data).toMatchObject({ completion: 'any', quorum: null, due_hours: 48 });
  });

  it('refuses a route to a step of another workflow, a missing route target and a missing quorum (400)', async () => {
    const w = await newWorkflow();
    const other = await newStep((await newWorkflow()).id);
    await expect400Each('/api/create_update_workflow_step', [
      [
        { workflow_id: w.id, name: 'X', on_approve: 'step', on_approve_step_id: other.id },
        'body.on_approve_step_id',
      ],
      [{ workflow_id: w.id, name: 'X', on_reject: 'step' }, 'body.on_reject_step_id'],
      [{ workflow_id: w.id, name: 'X', completion: 'quorum' }, 'body.quorum'],
      [{ id: other.id, workflow_id: w.id, name: 'X' }, 'body.workflow_id'],
    ]);
    expect(
      (await post('/api/create_update_workflow_step', { workflow_id: 999999, name: 'X' })).statusCode,
    ).toBe(404);
    expect((await get('/api/get_step/999999')).statusCode).toBe(404);
  });

  it('deletes a step: the rest close up, and routes that led to it go on to the next step', async () => {
    const w = await newWorkflow();
    const a = await newStep(w.id, { name: 'A' });
    const b = await newStep(w.id, { name: 'B' });
    const c = await newStep(w.id, { name: 'C', on_reject: 'step', on_reject_step_id: b.id });
    const res = await del(`/api/workflow/del_step/${b.id}`);
    expect(res.statusCode).toBe(200);
    const steps = (await get(`/api/view_workflow/${w.id}`)).json().data.steps;
    expect(steps.map((s: { id: number; position: number }) => [s.id, s.position])).toEqual([
      [a.id, 1],
      [c.id, 2],
    ]);
    expect(steps[1]).toMatchObject({ on_reject: 'previous', on_reject_step_id: null });
    expect((await del(`/api/workflow/del_step/${b.id}`)).statusCode).toBe(404);
  });
});

describe('edits of one workflow sent at once', () => {
  it('each answers, one after the other: assignees, step metadata and workflow metadata', async () => {
    const w = await newWorkflow();
    const step = await newStep(w.id);
    const {
      users: { u1, u2 },
    } = await seed(t, { users: { u1: { signIn: false }, u2: { signIn: false } } });
    const people = [[u1.id], [u2.id], [u1.id, u2.id], [staff.id, u1.id], [u2.id, staff.id], [staff.id]];
    const fieldSets = [
      [numberField.id],
      [textField.id, numberField.id],
      [dateField.id],
      [numberField.id, dateField.id],
    ];
    const answers = await Promise.all([
      ...people.map((user_ids) => post('/api/update_assignee', { workflow_step_id: step.id, user_ids })),
      ...fieldSets.map((ids) =>
        post('/api/workflow/step/edit_metadata', {
          workflow_step_id: step.id,
          fields: ids.map((field_id) => ({ field_id })),
        }),
      ),
      ...fieldSets.map((ids) =>
        post('/api/workflow/create_update_metadata', {
          id: w.id,
          fields: ids.map((field_id) => ({ field_id })),
        }),
      ),
    ]);
    expect(answers.map((r) => `${r.statusCode}${r.statusCode === 200 ? '' : r.body}`)).toEqual(
      answers.map(() => '200'),
    );
    // What stands is one of the sets sent, whole.
    const assignees = (await get(`/api/get_assignee/${step.id}`)).json().data as Array<{ user_id: number }>;
    expect(people.map((p) => [...p].sort().join())).toContain(
      assignees
        .map((a) => a.user_id)
        .sort()
        .join(),
    );
  });
});

describe('workflow metadata and step metadata', () => {
  it('sets the workflow metadata in order, with checked defaults', async () => {
    const w = await newWorkflow();
    const res = await post('/api/workflow/create_update_metadata', {
      id: w.id,
      fields: [
        { field_id: selectField.id, required: true, default_value: 2 },
        { field_id: numberField.id, default_value: '12.5' },
      ],
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.fields).toEqual([
      expect.objectContaining({
        field_id: selectField.id,
        type: 'select',
        required: true,
        default_value: 2,
        position: 1,
        options: [
          { key: 1, label: 'Invoice' },
          { key: 2, label: 'Receipt' },
        ],
      }),
      expect.objectContaining({
        field_id: numberField.id,
        default_value: 12.5,
        position: 2,
        required: false,
      }),
    ]);
  });

  it('refuses unknown fields and defaults of the wrong type (400 naming them), writing nothing', async () => {
    const w = await newWorkflow();
    const [, bad] = await expect400Each('/api/workflow/create_update_metadata', [
      [{ id: w.id, fields: [{ field_id: 999999 }] }, 'body.fields'],
      [{ id: w.id, fields: [{ field_id: numberField.id, default_value: 'lots' }] }, 'body.fields.0.value'],
      [{ id: w.id, fields: [{ field_id: dateField.id }, { field_id: dateField.id }] }, 'body.fields'],
    ]);
    expect(bad.message).toBe('Amount: Enter a number');
  });

  it('sets the fields of a step, then their defaults; only fields of the step take a default', async () => {
    const w = await newWorkflow();
    const step = await newStep(w.id);
    const edit = await post('/api/workflow/step/edit_metadata', {
      workflow_step_id: step.id,
      fields: [
        { field_id: textField.id, required: true },
        { field_id: dateField.id, editable: false },
      ],
    });
    expect(edit.statusCode).toBe(200);
    expect(
      edit
        .json()
        .data.map((f: { field_id: number; editable: boolean; required: boolean }) => [
          f.field_id,
          f.editable,
          f.required,
        ]),
    ).toEqual([
      [textField.id, true, true],
      [dateField.id, false, false],
    ]);
    const defaults = await post('/api/workflow/step/set_default_metadata', {
      workflow_step_id: step.id,
      defaults: [{ field_id: dateField.id, value: '2026-03-31' }],
    });
    expect(defaults.statusCode).toBe(200);
    expect(defaults.json().data[1].default_value).toBe('2026-03-31');
    expect((await get(`/api/get_step_metadata/${step.id}`)).json().data[1].default_value).toBe('2026-03-31');
    // A default survives re-ordering the fields.
    await post('/api/workflow/step/edit_metadata', {
      workflow_step_id: step.id,
      fields: [{ field_id: dateField.id }, { field_id: textField.id }],
    });
    expect((await get(`/api/get_step_metadata/${step.id}`)).json().data[0]).toMatchObject({
      field_id: dateField.id,
      default_value: '2026-03-31',
      position: 1,
    });
    await expect400Each('/api/workflow/step/set_default_metadata', [
      [
        { workflow_step_id: step.id, defaults: [{ field_id: numberField.id, value: 3 }] },
        'body.defaults.0.field_id',
      ],
      [
        { workflow_step_id: step.id, defaults: [{ field_id: dateField.id, value: '31/03/2026' }] },
        'body.defaults.0.value',
      ],
    ]);
  });
});

describe('assignees and recipients', () => {
  it('lists active users and groups to choose from', async () => {
    const {
      users: { gone },
      groups: { group },
    } = await seed(t, {
      users: { gone: { status: 'deactivated', signIn: false } },
      groups: { group: { name: uniqueName('Group'), members: [staff] } },
    });
    const res = await get('/api/get_recipient');
    expect(res.statusCode).toBe(200);
    const { users, groups } = res.json().data;
    expect(users.map((u: { id: number }) => u.id)).toContain(staff.id);
    expect(users.map((u: { id: number }) => u.id)).not.toContain(gone.id);
    expect(groups).toContainEqual({ id: group.id, name: group.name, member_count: 1 });
  });

  it("sets a step's users and groups (the rows that stay keep their ids), and removes one", async () => {
    const w = await newWorkflow();
    const step = await newStep(w.id);
    const {
      users: { other },
      groups: { group },
    } = await seed(t, {
      users: { other: { firstName: 'Olga', lastName: 'Other', signIn: false } },
      groups: { group: { name: uniqueName('Signers'), members: [] } },
    });
    const first = await post('/api/update_assignee', {
      workflow_step_id: step.id,
      user_ids: [staff.id, other.id],
    });
    expect(first.statusCode).toBe(200);
    const kept = first.json().data.find((a: { user_id: number }) => a.user_id === staff.id);
    const second = await post('/api/update_assignee', {
      workflow_step_id: step.id,
      user_ids: [staff.id],
      group_ids: [group.id],
    });
    expect(second.json().data).toEqual([
      { id: kept.id, step_id: step.id, kind: 'user', user_id: staff.id, group_id: null, name: 'Sam Staff' },
      expect.objectContaining({ kind: 'group', group_id: group.id, name: group.name }),
    ]);
    expect((await get(`/api/get_assignee/${step.id}`)).json().data).toHaveLength(2);
    expect((await del(`/api/del_assignee/${kept.id}`)).statusCode).toBe(200);
    expect((await get(`/api/get_assignee/${step.id}`)).json().data).toHaveLength(1);
    expect((await del(`/api/del_assignee/${kept.id}`)).statusCode).toBe(404);
  });

  it('refuses unknown or inactive users, unknown groups and an empty choice (400), writing nothing', async () => {
    const step = await newStep((await newWorkflow()).id);
    const {
      users: { inactive },
    } = await seed(t, { users: { inactive: { status: 'deactivated', signIn: false } } });
    await expect400Each('/api/update_assignee', [
      [{ workflow_step_id: step.id, user_ids: [inactive.id] }, 'body.user_ids'],
      [{ workflow_step_id: step.id, group_ids: [999999] }, 'body.group_ids'],
      [{ workflow_step_id: step.id, user_ids: [] }, 'body.user_ids'],
    ]);
    expect(
      (await post('/api/update_assignee', { workflow_step_id: 999999, user_ids: [staff.id] })).statusCode,
    ).toBe(404);
  });
});

describe('notifications', () => {
  it('a new step tells its assignees when a file enters it, in the app and by e-mail', async () => {
    const workflow = await newWorkflow();
    const step = await newStep(workflow.id);
    expect((await get(`/api/get_notification/${step.id}`)).json().data).toEqual([
      expect.objectContaining({ event: 'entered', recipient: 'assignees', in_app: true, email: true }),
    ]);
    // Editing the step keeps the one rule.
    await newStep(workflow.id, { id: step.id, name: 'Renamed' });
    expect((await get(`/api/get_notification/${step.id}`)).json().data).toHaveLength(1);
  });

  it('adds, updates, lists and deletes a step notification', async () => {
    const step = await newStep((await newWorkflow()).id);
    const [told] = (await get(`/api/get_notification/${step.id}`)).json().data;
    expect((await del(`/api/del_notification/${told.id}`)).statusCode).toBe(200);
    const created = await post('/api/update_notification', {
      workflow_step_id: step.id,
      event: 'entered',
      recipient: 'user',
      user_id: staff.id,
      subject: '{file} needs you',
    });
    expect(created.statusCode).toBe(200);
    expect(created.json().data).toMatchObject({
      event: 'entered',
      recipient: 'user',
      user_id: staff.id,
      recipient_name: 'Sam Staff',
      in_app: true,
      email: true,
      subject: '{file} needs you',
    });
    const id = created.json().data.id;
    const updated = await post('/api/update_notification', {
      id,
      workflow_step_id: step.id,
      event: 'rejected',
      recipient: 'owner',
      email: false,
    });
    expect(updated.json().data).toMatchObject({
      id,
      event: 'rejected',
      recipient: 'owner',
      user_id: null,
      email: false,
    });
    expect((await get(`/api/get_notification/${step.id}`)).json().data).toHaveLength(1);
    expect((await del(`/api/del_notification/${id}`)).statusCode).toBe(200);
    expect((await get(`/api/get_notification/${step.id}`)).json().data).toEqual([]);
  });

  it('refuses a user recipient without a user, no channel, and an unknown event (400)', async () => {
    const step = await newStep((await newWorkflow()).id);
    const base = { workflow_step_id: step.id };
    await expect400Each('/api/update_notification', [
      [{ ...base, event: 'entered', recipient: 'user' }, 'body.user_id'],
      [{ ...base, event: 'entered', recipient: 'owner', in_app: false, email: false }, 'body.in_app'],
      [{ ...base, event: 'later', recipient: 'owner' }, 'body.event'],
    ]);
    expect((await del('/api/del_notification/999999')).statusCode).toBe(404);
  });
});

describe('conditions', () => {
  it('keeps PRE and POST conditions apart, in order, with and/or', async () => {
    const step = await newStep((await newWorkflow()).id);
    const pre1 = await post('/api/update_condition', {
      workflow_step_id: step.id,
      mode: 'PRE',
      field_id: numberField.id,
      operator: 'gt',
      value: '100',
    });
    expect(pre1.statusCode, pre1.body).toBe(200);
    await post('/api/update_condition', {
      workflow_step_id: step.id,
      mode: 'PRE',
      field_id: selectField.id,
      operator: 'in_list',
      value: ['1', 'Receipt'],
      join: 'or',
    });
    await post('/api/update_condition', {
      workflow_step_id: step.id,
      mode: 'POST',
      field_id: textField.id,
      operator: 'not_empty',
    });
    const pre = (await post('/api/get_condition', { step_id: step.id })).json().data;
    expect(
      pre.map(
        (c: { field_name: string; operator: string; value: unknown; join: string; position: number }) => [
          c.field_name,
          c.operator,
          c.value,
          c.join,
          c.position,
        ],
      ),
    ).toEqual([
      ['Amount', 'gt', '100', 'and', 1],
      ['Kind', 'in_list', ['1', 'Receipt'], 'or', 2],
    ]);
    const postConditions = (await post('/api/get_condition_post', { step_id: step.id })).json().data;
    expect(postConditions).toEqual([
      expect.objectContaining({ mode: 'POST', field_name: 'Reference', operator: 'not_empty', value: null }),
    ]);
    const changed = await post('/api/update_condition', {
      id: pre1.json().data.id,
      workflow_step_id: step.id,
      mode: 'PRE',
      field_id: numberField.id,
      operator: 'lt',
      value: '5000',
    });
    expect(changed.json().data).toMatchObject({
      id: pre1.json().data.id,
      operator: 'lt',
      value: '5000',
      position: 1,
    });
    expect((await del(`/api/del_condition/${pre1.json().data.id}`)).statusCode).toBe(200);
    expect((await post('/api/get_condition', { step_id: step.id })).json().data).toHaveLength(1);
  });

  it('refuses values that do not fit the field, a list for one value, and greater-than on yes/no (400)', async () => {
    const step = await newStep((await newWorkflow()).id);
    const {
      fields: { boolField },
    } = await seed(t, { fields: { boolField: { name: 'Paid', type: 'boolean' } } });
    const base = { workflow_step_id: step.id, mode: 'PRE' };
    await expect400Each('/api/update_condition', [
      [{ ...base, field_id: numberField.id, operator: 'eq', value: 'ten' }, 'body.value'],
      [{ ...base, field_id: numberField.id, operator: 'eq' }, 'body.value'],
      [{ ...base, field_id: numberField.id, operator: 'in_list', value: '3' }, 'body.value'],
      [{ ...base, field_id: selectField.id, operator: 'eq', value: 'Bill' }, 'body.value'],
      [{ ...base, field_id: boolField.id, operator: 'gt', value: 'yes' }, 'body.operator'],
      [{ ...base, field_id: 999999, operator: 'empty' }, 'body.field_id'],
      [{ ...base, field_id: textField.id, operator: 'empty', on_workflow_field: true }, 'body.field_id'],
    ]);
    expect((await post('/api/get_condition', { step_id: 999999 })).statusCode).toBe(404);
  });
});

describe('triggers', () => {
  it('adds, lists, updates and deletes triggers of each kind', async () => {
    const w = await newWorkflow();
    const step = await newStep(w.id);
    const later = await newStep(w.id);
    const onIndex = await post('/api/update_trigger', { workflow_step_id: step.id, kind: 'on_index' });
    expect(onIndex.statusCode, onIndex.body).toBe(200);
    const change = await post('/api/update_trigger', {
      workflow_step_id: step.id,
      kind: 'on_field_change',
      field_id: selectField.id,
      value: 'Receipt',
      target_step_id: later.id,
    });
    expect(change.json().data).toMatchObject({
      field_name: 'Kind',
      value: 'Receipt',
      target_step_id: later.id,
    });
    const date = await post('/api/update_trigger', {
      workflow_step_id: step.id,
      kind: 'on_date',
      cron: '0 9 * * 1',
    });
    expect(date.json().data).toMatchObject({ kind: 'on_date', cron: '0 9 * * 1', field_id: null });
    const overdue = await post('/api/update_trigger', {
      workflow_step_id: step.id,
      kind: 'overdue',
      escalate_user_id: staff.id,
    });
    expect(overdue.json().data).toMatchObject({ escalate_user_id: staff.id, escalate_name: 'Sam Staff' });
    const list = (await get(`/api/get_trigger/${step.id}`)).json().data;
    expect(list.map((x: { kind: string }) => x.kind)).toEqual([
      'on_index',
      'on_field_change',
      'on_date',
      'overdue',
    ]);
    const off = await post('/api/update_trigger', {
      id: date.json().data.id,
      workflow_step_id: step.id,
      kind: 'on_date',
      field_id: dateField.id,
      active: false,
    });
    expect(off.json().data).toMatchObject({ field_id: dateField.id, cron: null, active: false });
    expect((await del(`/api/del_trigger/${onIndex.json().data.id}`)).statusCode).toBe(200);
    expect((await get(`/api/get_trigger/${step.id}`)).json().data).toHaveLength(3);
  });

  it('refuses a bad schedule, a date trigger on a field that is not a date, a missing escalation and a foreign target (400)', async () => {
    const step = await newStep((await newWorkflow()).id);
    const foreign = await newStep((await newWorkflow()).id);
    const url = '/api/update_trigger';
    const base = { workflow_step_id: step.id };
    // Said in sentences, never in the scheduler's parser's words.
    for (const [cron, message] of [
      ['every day', 'Give five fields: minute hour day month weekday'],
      ['0 9 * * 9', 'Weekday must be 0-7 or SUN-SAT'],
      ['0 9 30 2 *', CRON_NEVER_DUE],
    ] as const) {
      const res = await expect400(url, { ...base, kind: 'on_date', cron }, 'body.cron');
      expect(res.errors).toEqual([{ path: 'body.cron', message }]);
    }
    for (const [payload, path] of [
      [{ kind: 'on_date', field_id: textField.id }, 'body.field_id'],
      [{ kind: 'on_date' }, 'body.field_id'],
      [{ kind: 'overdue' }, 'body.escalate_user_id'],
      [{ kind: 'on_field_change' }, 'body.field_id'],
      [{ kind: 'on_field_change', field_id: numberField.id, value: 'x' }, 'body.value'],
      [
        { kind: 'on_field_change', field_id: numberField.id, target_step_id: foreign.id },
        'body.target_step_id',
      ],
    ] as const)
      await expect400(url, { ...base, ...payload }, path);
  });
});

describe('deleting and editing what running files use', () => {
  /** A person (not signed in) who may edit in a category of their own: a file's owner there. */
  const ownerWithCategory = async () => {
    const { users, categories } = await seed(t, {
      users: { owner: { signIn: false } },
      categories: { category: { grants: { owner: ['edit'] } } },
    });
    return { owner: users.owner, category: categories.category };
  };

  it('refuses deleting a running workflow, its steps and the details of the step files wait in, naming how many files', async () => {
    const { owner, category } = await ownerWithCategory();
    const w = await designWorkflow(t, admin, {
      steps: [
        {
          name: 'Check',
          users: [staff.id],
          conditions: [{ mode: 'POST', field_id: textField.id, operator: 'not_empty' }],
          triggers: [{ kind: 'overdue', escalate_user_id: staff.id }],
          notifications: [{ event: 'entered', recipient: 'owner' }],
          fields: [{ field_id: textField.id }],
        },
        {
          name: 'Sign',
          users: [staff.id],
          conditions: [{ mode: 'PRE', field_id: numberField.id, operator: 'not_empty' }],
        },
      ],
    });
    const files = [];
    for (let i = 0; i < 2; i += 1) {
      const file = await createFile(t.db, t.app.deps.blobs, { ownerId: owner.id, categoryId: category.id });
      await setFileValues(t.db, file.id, [{ fieldId: numberField.id, value: 5 }]);
      files.push(file);
    }
    await startWorkflow(
      t,
      admin,
      w.id,
      files.map((f) => f.id),
    );

    const before = await workflowCounts(t);
    const wf = await del(`/api/del_workflow/${w.id}`);
    expect(wf.statusCode).toBe(409);
    expect(wf.json().message).toBe(
      '2 files are running through this workflow. Let them finish, or move them out, before deleting it.',
    );
    const step = await del(`/api/workflow/del_step/${w.steps[1]}`);
    expect(step.statusCode).toBe(409);
    expect(step.json().message).toContain('2 files are running');
    const view = (await get(`/api/view_workflow/${w.id}`)).json().data;
    expect(view.running_count).toBe(2);
    expect(view.steps[0].running_count).toBe(2);
    const check = view.steps[0];
    for (const url of [
      `/api/del_assignee/${check.assignees[0].id}`,
      `/api/del_condition/${check.conditions[0].id}`,
      `/api/del_trigger/${check.triggers[0].id}`,
      `/api/del_notification/${check.notifications[0].id}`,
    ]) {
      const res = await del(url);
      expect(res.statusCode, url).toBe(409);
      expect(res.json().message).toMatch(/^2 files are waiting in this step and still use its \w+\./);
    }
    expect(await workflowCounts(t)).toEqual(before);
    // A detail of a step no file waits in may go: the change applies to files that enter it later.
    expect((await del(`/api/del_condition/${view.steps[1].conditions[0].id}`)).statusCode).toBe(200);
  });

  it('applies an edit of a running workflow to steps not yet reached: the file keeps its assignees and due time', async () => {
    const {
      users: { owner, newcomer },
      categories: { category },
    } = await seed(t, {
      users: { owner: {}, newcomer: { firstName: 'Nia', lastName: 'New', signIn: false } },
      categories: { category: { grants: { owner: ['edit'] } } },
    });
    const ownerToken = owner.token;
    const staffToken = await loginAs(t.app, staff, 'user');
    const w = await designWorkflow(t, admin, {
      steps: [
        { name: 'First', users: [staff.id], due_hours: 10 },
        { name: 'Second', users: [staff.id] },
      ],
    });
    const file = await createFile(t.db, t.app.deps.blobs, { ownerId: owner.id, categoryId: category.id });
    await startWorkflow(t, ownerToken, w.id, [file.id]);
    const due = (await stageOf(t, ownerToken, file.id)).run?.due_at;
    for (const stepId of w.steps) {
      await post('/api/update_assignee', { workflow_step_id: stepId, user_ids: [newcomer.id] });
    }
    await post('/api/create_update_workflow_step', {
      id: w.steps[0],
      workflow_id: w.id,
      name: 'First',
      due_hours: 1,
    });
    const now = await stageOf(t, ownerToken, file.id);
    expect(now.run?.assignees.map((a) => a.name)).toEqual(['Sam Staff']);
    expect(now.run?.due_at).toBe(due);
    await api(t, staffToken, {
      method: 'POST',
      url: '/api/manual-triger',
      payload: { file_id: file.id, workflow_step_id: w.steps[0], action: 'approve' },
    });
    const next = await stageOf(t, ownerToken, file.id);
    expect(next.run?.current_step?.name).toBe('Second');
    expect(next.run?.assignees.map((a) => a.name)).toEqual(['Nia New']);
  });

  it('deletes a workflow that never ran, and retires one whose runs have finished (history kept)', async () => {
    const fresh = await newWorkflow();
    expect((await del(`/api/del_workflow/${fresh.id}`)).statusCode).toBe(200);
    expect(await t.db.workflow.findUnique({ where: { id: fresh.id } })).toBeNull();

    const { owner, category } = await ownerWithCategory();
    const w = await designWorkflow(t, admin, {
      steps: [{ name: 'Only', users: [staff.id] }],
      categoryIds: [category.id],
    });
    const file = await createFile(t.db, t.app.deps.blobs, { ownerId: owner.id, categoryId: category.id });
    await startWorkflow(t, admin, w.id, [file.id]);
    await api(t, admin, {
      method: 'POST',
      url: '/api/manual-triger',
      payload: { file_id: file.id, workflow_step_id: w.steps[0], action: 'cancel' },
    });
    expect((await del(`/api/del_workflow/${w.id}`)).statusCode).toBe(200);
    expect((await get(`/api/view_workflow/${w.id}`)).statusCode).toBe(404);
    expect((await t.db.workflow.findUnique({ where: { id: w.id } }))?.deletedAt).not.toBeNull();
    expect((await t.db.category.findUnique({ where: { id: category.id } }))?.workflowId).toBeNull();
    const history = (await stageOf(t, admin, file.id)).history;
    expect(history.map((h) => h.kind)).toEqual(['cancelled', 'started']);
    // Its name is free again.
    expect((await post('/api/create_and_update_workflow', { name: w.name })).statusCode).toBe(200);
  });
});
