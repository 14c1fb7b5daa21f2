import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callAs } from '../../../test/access.js';
import type { TestContext } from '../../../test/app.js';
import { createFile, setFileValues } from '../../../test/factories.js';
import { type SeededUser, seed, seededApp } from '../../../test/seed.js';
import { designWorkflow, stageOf, workflowCounts } from '../../../test/workflows.js';
import type { AuthContext } from '../../lib/session.js';
import { assertStepAllowsEdit } from './run.service.js';

// Runs: starting workflows on files, deciding on steps (approve, reject, a stuck file moved
// or cancelled), who may do each, the state machine under parallel decisions, what a file's
// workflow and a person's work look like, notifications and e-mails, and the dry run.

let t: TestContext;
let admin: string;
let adminId: number;
let people: Record<'owner' | 'alice' | 'bob' | 'dave' | 'carol' | 'outsider', SeededUser>;
let groupId: number;
let category: { id: number; name: string };
let amount: { id: number };
let note: { id: number };

const person = (firstName: string) => ({ firstName, lastName: 'Test' });

beforeAll(async () => {
  const world = await seededApp({
    users: {
      fileControl: { accessType: 'File Control Admin' },
      owner: person('Owner'),
      alice: person('Alice'),
      bob: person('Bob'),
      dave: person('Dave'),
      carol: person('Carol'),
      outsider: person('Outsider'),
    },
    groups: { signers: ['bob', 'dave'] },
    fields: {
      amount: { name: 'Amount', type: 'number' },
      note: { name: 'Approval note', type: 'text' },
    },
    categories: { invoices: { name: 'Invoices', grants: { owner: ['edit'], carol: [] } } },
  });
  const { fileControl, ...rest } = world.users;
  ({
    t,
    fields: { amount, note },
    categories: { invoices: category },
  } = world);
  ({ id: adminId, token: admin } = fileControl);
  people = rest;
  groupId = world.groups.signers.id;
});
afterAll(() => t.close());

const as = (who: keyof typeof people | 'admin', opts: InjectOptions) =>
  callAs(t, who === 'admin' ? admin : people[who].token, opts);

async function invoice(value: number | null = 500) {
  const file = await createFile(t.db, t.app.deps.blobs, {
    ownerId: people.owner.id,
    categoryId: category.id,
  });
  if (value !== null) await setFileValues(t.db, file.id, [{ fieldId: amount.id, value }]);
  return file;
}

/** Check (alice) -> Sign (group Signers: bob, dave; any) ; PRE on Check: Amount > 100. */
const twoSteps = (extra: { sign?: object; check?: object } = {}) =>
  designWorkflow(t, admin, {
    steps: [
      {
        name: 'Check',
        users: [people.alice.id],
        conditions: [{ mode: 'PRE', field_id: amount.id, operator: 'gt', value: '100' }],
        ...extra.check,
      },
      { name: 'Sign', groups: [groupId], ...extra.sign },
    ],
  });

const start = (who: keyof typeof people | 'admin', workflowId: number, fileIds: number[], values?: object) =>
  as(who, {
    method: 'POST',
    url: '/api/initiate-workflow',
    payload: { workflow_id: workflowId, file_ids: fileIds, ...(values ? { values } : {}) },
  });

const decide = (who: keyof typeof people | 'admin', payload: object) =>
  as(who, { method: 'POST', url: '/api/manual-triger', payload });

describe('POST /api/initiate-workflow', () => {
  it('starts the workflow on each file in its first step: tasks, history, audit', async () => {
    const w = await twoSteps();
    const files = [await invoice(500), await invoice(700)];
    const res = await start(
      'owner',
      w.id,
      files.map((f) => f.id),
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toBe('Workflow started');
    expect(res.json().data.started).toEqual(
      files.map((f) => ({
        file_id: f.id,
        instance_id: expect.any(Number),
        step: { id: w.steps[0], name: 'Check' },
      })),
    );
    const stage = await stageOf(t, people.owner.token, files[0]!.id);
    expect(stage.run).toMatchObject({
      status: 'running',
      current_step: { id: w.steps[0], name: 'Check', position: 1 },
      assignees: [{ user_id: people.alice.id, name: 'Alice Test', status: 'open' }],
      started_by: { id: people.owner.id, name: 'Owner Test' },
      can_act: false,
      can_move: false,
    });
    expect(stage.history.map((h) => [h.kind, h.to_step?.name, h.acted_by?.name])).toEqual([
      ['started', 'Check', 'Owner Test'],
    ]);
    const audit = await t.db.auditEvent.findFirst({
      where: { action: 'workflow.started', targetId: String(files[0]!.id) },
    });
    expect(audit?.message).toBe(
      `Started workflow "${w.name}" on "${files[0]!.name}" at "Check" (started by hand)`,
    );
  });

  it("starts all or none: a file failing the first step's PRE condition stops the call (409 naming it)", async () => {
    const w = await twoSteps();
    const ok = await invoice(500);
    const small = await invoice(50);
    const before = await workflowCounts(t);
    const res = await start('owner', w.id, [ok.id, small.id]);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({
      code: 'workflow.conditions_fail',
      message: `"${small.name}" cannot enter "Check": Amount is greater than 100 (it is 50).`,
    });
    expect(await workflowCounts(t)).toEqual(before);
  });

  it('runs one workflow at a time on a file (409), and refuses drafts, unknown workflows and bad values', async () => {
    const w = await twoSteps();
    const file = await invoice();
    expect((await start('owner', w.id, [file.id])).statusCode).toBe(200);
    const again = await start('owner', w.id, [file.id]);
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(
      `"${file.name}" is already running a workflow; a file runs one at a time.`,
    );

    const draft = await designWorkflow(t, admin, {
      active: false,
      steps: [{ name: 'A', users: [people.alice.id] }],
    });
    const other = await invoice();
    const before = await workflowCounts(t);
    const d = await start('owner', draft.id, [other.id]);
    expect(d.statusCode).toBe(400);
    expect(d.json().errors).toEqual([{ path: 'body.workflow_id', message: 'This workflow is a draft' }]);
    expect((await start('owner', 999999, [other.id])).statusCode).toBe(404);
    const shape = await start('owner', w.id, []);
    expect(shape.statusCode).toBe(400);
    expect(shape.json().errors[0].path).toBe('body.file_ids');
    expect(await workflowCounts(t)).toEqual(before);
  });

  it('takes the workflow metadata: given values, defaults, and required ones refused when missing', async () => {
    const {
      fields: { kind },
    } = await seed(t, {
      fields: { kind: { name: 'Cost centre', type: 'select', items: ['North', 'South'] } },
    });
    const w = await designWorkflow(t, admin, {
      fields: [
        { field_id: kind.id, required: true },
        { field_id: note.id, default_value: 'none yet' },
      ],
      steps: [{ name: 'Only', users: [people.alice.id] }],
    });
    const file = await invoice();
    const missing = await start('owner', w.id, [file.id]);
    expect(missing.statusCode).toBe(400);
    expect(missing.json().errors).toEqual([{ path: 'body.values', message: 'Cost centre is required' }]);
    const wrong = await start('owner', w.id, [file.id], [{ field_id: kind.id, value: 'East' }]);
    expect(wrong.json().errors).toEqual([
      { path: 'body.values.0.value', message: 'Cost centre: Choose one of the items of "Cost centre"' },
    ]);
    const ok = await start('owner', w.id, [file.id], [{ field_id: kind.id, value: 'South' }]);
    expect(ok.statusCode, ok.body).toBe(200);
    const stage = await stageOf(t, people.owner.token, file.id);
    expect(stage.run?.values.map((v) => [v.name, v.value, v.display])).toEqual(
      expect.arrayContaining([
        ['Cost centre', 2, 'South'],
        ['Approval note', 'none yet', 'none yet'],
      ]),
    );
  });
});

describe('POST /api/manual-triger: deciding', () => {
  it("an approval moves the file to the next step; the group's members get the work; a rejection sends it back", async () => {
    const w = await twoSteps();
    const file = await invoice();
    await start('owner', w.id, [file.id]);
    expect((await stageOf(t, people.alice.token, file.id)).run?.can_act).toBe(true);

    const approve = await decide('alice', {
      file_id: file.id,
      workflow_step_id: w.steps[0],
      action: 'approve',
      comment: 'Fine',
    });
    expect(approve.statusCode, approve.body).toBe(200);
    expect(approve.json().message).toBe('Step approved');
    expect(approve.json().data.run).toMatchObject({
      current_step: { name: 'Sign' },
      assignees: [
        { user_id: people.bob.id, status: 'open' },
        { user_id: people.dave.id, status: 'open' },
      ],
    });
    const bobsWork = await as('bob', { method: 'GET', url: '/api/assigned-files' });
    expect(bobsWork.json().data.items).toContainEqual(
      expect.objectContaining({
        file_id: file.id,
        file_name: file.name,
        category: { id: category.id, name: 'Invoices' },
        workflow: { id: w.id, name: w.name },
        step: { id: w.steps[1], name: 'Sign' },
        started_by: 'Owner Test',
        overdue: false,
      }),
    );
    expect(
      (await as('alice', { method: 'GET', url: '/api/assigned-files' }))
        .json()
        .data.items.map((i: { file_id: number }) => i.file_id),
    ).not.toContain(file.id);

    const noReason = await decide('bob', {
      file_id: file.id,
      workflow_step_id: w.steps[1],
      action: 'reject',
    });
    expect(noReason.statusCode).toBe(400);
    expect(noReason.json().errors).toEqual([{ path: 'body.comment', message: 'Say why you reject it' }]);
    const reject = await decide('bob', {
      file_id: file.id,
      workflow_step_id: w.steps[1],
      action: 'reject',
      comment: 'Wrong total',
    });
    expect(reject.statusCode).toBe(200);
    const stage = reject.json().data;
    expect(stage.run.current_step.name).toBe('Check');
    expect(stage.run.assignees).toEqual([{ user_id: people.alice.id, name: 'Alice Test', status: 'open' }]);
    expect(
      stage.history.map(
        (h: {
          kind: string;
          from_step: { name: string } | null;
          to_step: { name: string } | null;
          comment: string;
        }) => [h.kind, h.from_step?.name ?? null, h.to_step?.name ?? null, h.comment],
      ),
    ).toEqual([
      ['rejected', 'Sign', 'Check', 'Wrong total'],
      ['approved', 'Check', 'Sign', 'Fine'],
      ['started', null, 'Check', ''],
    ]);
    // Dave's task went with the step.
    const daveTasks = await t.db.workflowTask.findMany({
      where: { userId: people.dave.id, instance: { fileId: file.id } },
    });
    expect(daveTasks.map((x) => x.status)).toEqual(['cancelled']);
  });

  it('completes the run at the last approval, and ends it rejected when the first step rejects', async () => {
    const w = await twoSteps();
    const file = await invoice();
    await start('owner', w.id, [file.id]);
    await decide('alice', { file_id: file.id, workflow_step_id: w.steps[0], action: 'approve' });
    const done = await decide('dave', { file_id: file.id, workflow_step_id: w.steps[1], action: 'approve' });
    expect(done.json().data.run).toMatchObject({ status: 'completed', current_step: null, can_act: false });
    expect(done.json().data.run.finished_at).not.toBeNull();

    const other = await invoice();
    await start('owner', w.id, [other.id]);
    const rejected = await decide('alice', {
      file_id: other.id,
      workflow_step_id: w.steps[0],
      action: 'reject',
      comment: 'No',
    });
    expect(rejected.json().data.run).toMatchObject({ status: 'rejected', current_step: null });
    // A finished file may start again.
    expect((await start('owner', w.id, [other.id])).statusCode).toBe(200);
  });

  it('refuses someone the step is not assigned to (403), a stale step (409) and a second decision (409), changing nothing', async () => {
    const w = await twoSteps({ check: { completion: 'all', users: [people.alice.id, people.dave.id] } });
    const file = await invoice();
    await start('owner', w.id, [file.id]);
    const before = await workflowCounts(t);
    const carol = await decide('carol', {
      file_id: file.id,
      workflow_step_id: w.steps[0],
      action: 'approve',
    });
    expect(carol.statusCode).toBe(403);
    expect(carol.json().message).toBe('You are not allowed to act on this step: it is not assigned to you');
    const stale = await decide('alice', {
      file_id: file.id,
      workflow_step_id: w.steps[1],
      action: 'approve',
    });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().message).toBe('The file has already left "Sign". Reload to see where it is now.');
    expect(await workflowCounts(t)).toEqual(before);

    expect(
      (await decide('alice', { file_id: file.id, workflow_step_id: w.steps[0], action: 'approve' }))
        .statusCode,
    ).toBe(200);
    const mid = await workflowCounts(t);
    const twice = await decide('alice', {
      file_id: file.id,
      workflow_step_id: w.steps[0],
      action: 'approve',
    });
    expect(twice.statusCode).toBe(409);
    expect(twice.json().message).toBe('You have already decided on this step.');
    expect(await workflowCounts(t)).toEqual(mid);
    // Alice's vote is recorded; the file waits for Dave.
    const stage = await stageOf(t, people.owner.token, file.id);
    expect(stage.run?.current_step?.name).toBe('Check');
    expect(stage.run?.assignees.map((a) => a.status)).toEqual(['approved', 'open']);
  });

  it('hides a file from someone who may not see it and never had work on it (404)', async () => {
    const w = await twoSteps();
    const file = await invoice();
    await start('owner', w.id, [file.id]);
    const res = await decide('outsider', {
      file_id: file.id,
      workflow_step_id: w.steps[0],
      action: 'approve',
    });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ message: 'File not found', code: 'file.not_found' });
    expect(
      (await as('outsider', { method: 'GET', url: `/api/folder-workflow-stage/${file.id}` })).statusCode,
    ).toBe(404);
    // Alice has no grant on the category, but the file waits on her: she sees its workflow.
    expect(
      (await as('alice', { method: 'GET', url: `/api/folder-workflow-stage/${file.id}` })).statusCode,
    ).toBe(200);
  });

  it("checks POST conditions with the step's form, and required fields of the form", async () => {
    const w = await designWorkflow(t, admin, {
      steps: [
        {
          name: 'Review',
          users: [people.alice.id],
          fields: [{ field_id: note.id, required: false }],
          conditions: [
            { mode: 'POST', field_id: note.id, on_workflow_field: true, operator: 'contains', value: 'ok' },
          ],
        },
        { name: 'Pay', users: [people.bob.id], fields: [{ field_id: amount.id, required: true }] },
      ],
    });
    const file = await invoice();
    await start('owner', w.id, [file.id]);
    const blocked = await decide('alice', {
      file_id: file.id,
      workflow_step_id: w.steps[0],
      action: 'approve',
    });
    expect(blocked.statusCode).toBe(409);
    expect(blocked.json().message).toBe(
      '"Review" cannot be approved yet: Approval note contains ok (it is empty).',
    );
    const ok = await decide('alice', {
      file_id: file.id,
      workflow_step_id: w.steps[0],
      action: 'approve',
      values: [{ field_id: note.id, value: 'all ok' }],
    });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().data.history[0].values).toEqual([
      { field_id: note.id, name: 'Approval note', type: 'text', value: 'all ok', display: 'all ok' },
    ]);
    const form = (await stageOf(t, people.bob.token, file.id)).run?.form;
    expect(form).toEqual([expect.objectContaining({ field_id: amount.id, required: true, value: null })]);
    const missing = await decide('bob', {
      file_id: file.id,
      workflow_step_id: w.steps[1],
      action: 'approve',
    });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().errors).toEqual([{ path: 'body.values', message: 'Amount is required' }]);
    const foreign = await decide('bob', {
      file_id: file.id,
      workflow_step_id: w.steps[1],
      action: 'approve',
      values: [{ field_id: note.id, value: 'x' }],
    });
    expect(foreign.json().errors).toEqual([
      { path: 'body.values.0.field_id', message: 'This field is not part of the form' },
    ]);
  });

  it('refuses entering a step whose PRE conditions fail (409), leaving the vote unrecorded', async () => {
    const w = await twoSteps({
      sign: { conditions: [{ mode: 'PRE', field_id: amount.id, operator: 'lt', value: '1000' }] },
    });
    const file = await invoice(5000);
    await start('owner', w.id, [file.id]);
    const before = await workflowCounts(t);
    const res = await decide('alice', { file_id: file.id, workflow_step_id: w.steps[0], action: 'approve' });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe(
      `"${file.name}" cannot enter "Sign": Amount is less than 1000 (it is 5000).`,
    );
    expect(await workflowCounts(t)).toEqual(before);
  });

  it('completes a quorum step at the quorum', async () => {
    const w = await designWorkflow(t, admin, {
      steps: [
        {
          name: 'Board',
          users: [people.alice.id, people.bob.id, people.dave.id],
          completion: 'quorum',
          quorum: 2,
        },
      ],
    });
    const file = await invoice();
    await start('owner', w.id, [file.id]);
    await decide('alice', { file_id: file.id, workflow_step_id: w.steps[0], action: 'approve' });
    expect((await stageOf(t, admin, file.id)).run?.status).toBe('running');
    const second = await decide('dave', {
      file_id: file.id,
      workflow_step_id: w.steps[0],
      action: 'approve',
    });
    expect(second.json().data.run.status).toBe('completed');
  });
});

describe('parallel decisions', () => {
  // Repeated: the losers' answers depend on where the winner's commit falls among their
  // statements (a loser that read the run before it, and its task after, once got a 403).
  it('moves a file once when five assignees approve an "any" step at the same moment', {
    repeats: 10,
  }, async () => {
    const five = [people.alice, people.bob, people.dave, people.carol, people.owner];
    const w = await designWorkflow(t, admin, {
      steps: [
        { name: 'Anyone', users: five.map((p) => p.id) },
        { name: 'After', users: [people.alice.id] },
      ],
    });
    const file = await invoice();
    await start('owner', w.id, [file.id]);
    const results = await Promise.all(
      five.map((p) =>
        callAs(t, p.token, {
          method: 'POST',
          url: '/api/manual-triger',
          payload: { file_id: file.id, workflow_step_id: w.steps[0], action: 'approve' },
        }),
      ),
    );
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409, 409, 409, 409]);
    const instance = await t.db.workflowInstance.findFirstOrThrow({ where: { fileId: file.id } });
    expect(instance.currentStepId).toBe(w.steps[1]);
    const moves = await t.db.workflowTransition.findMany({
      where: { instanceId: instance.id },
      orderBy: { id: 'asc' },
    });
    expect(moves.map((m) => m.kind)).toEqual(['started', 'approved']);
    expect(
      await t.db.workflowTask.count({
        where: { instanceId: instance.id, stepId: w.steps[1], status: 'open' },
      }),
    ).toBe(1);
    expect(await t.db.workflowTask.count({ where: { instanceId: instance.id, status: 'approved' } })).toBe(1);
  });

  it('counts every vote of an "all" step decided at once, and moves the file once', async () => {
    const three = [people.alice, people.bob, people.dave];
    const w = await designWorkflow(t, admin, {
      steps: [
        { name: 'Everyone', users: three.map((p) => p.id), completion: 'all' },
        { name: 'After', users: [people.alice.id] },
      ],
    });
    const file = await invoice();
    await start('owner', w.id, [file.id]);
    const results = await Promise.all(
      three.map((p) =>
        callAs(t, p.token, {
          method: 'POST',
          url: '/api/manual-triger',
          payload: { file_id: file.id, workflow_step_id: w.steps[0], action: 'approve' },
        }),
      ),
    );
    expect(results.map((r) => r.statusCode)).toEqual([200, 200, 200]);
    const instance = await t.db.workflowInstance.findFirstOrThrow({ where: { fileId: file.id } });
    expect(instance.currentStepId).toBe(w.steps[1]);
    const moves = await t.db.workflowTransition.findMany({
      where: { instanceId: instance.id },
      orderBy: { id: 'asc' },
    });
    expect(moves.map((m) => [m.kind, m.toStepId])).toEqual([
      ['started', w.steps[0]],
      ['approved', w.steps[0]],
      ['approved', w.steps[0]],
      ['approved', w.steps[1]],
    ]);
  });
});

describe('moving a stuck file (File Control write)', () => {
  it('moves a file to a named step or cancels its run, audited; nobody else may', async () => {
    const w = await twoSteps();
    const file = await invoice();
    await start('owner', w.id, [file.id]);
    for (const who of ['alice', 'carol', 'owner'] as const) {
      const res = await decide(who, {
        file_id: file.id,
        workflow_step_id: w.steps[0],
        action: 'move',
        to_step_id: w.steps[1],
      });
      expect(res.statusCode, who).toBe(403);
      expect(res.json().message).toBe(
        'You are not allowed to move or cancel a run: that takes File Control write access',
      );
    }
    const {
      users: { auditor },
    } = await seed(t, { users: { auditor: { accessType: 'Auditor' } } });
    const byAuditor = await callAs(t, auditor.token, {
      method: 'POST',
      url: '/api/manual-triger',
      payload: { file_id: file.id, workflow_step_id: w.steps[0], action: 'cancel' },
    });
    expect(byAuditor.statusCode).toBe(403);
    expect(byAuditor.json().message).toBe(
      'You are not allowed to change workflows or their runs: the Auditor reads only',
    );
    expect((await stageOf(t, auditor.token, file.id)).run?.can_move).toBe(false);

    expect((await stageOf(t, admin, file.id)).run?.can_move).toBe(true);
    const bad = await decide('admin', { file_id: file.id, workflow_step_id: w.steps[0], action: 'move' });
    expect(bad.json().errors).toEqual([
      { path: 'body.to_step_id', message: 'Choose the step to move the file to' },
    ]);
    const moved = await decide('admin', {
      file_id: file.id,
      workflow_step_id: w.steps[0],
      action: 'move',
      to_step_id: w.steps[1],
      comment: 'Alice is away',
    });
    expect(moved.statusCode).toBe(200);
    expect(moved.json().data.run.current_step.name).toBe('Sign');
    const audit = await t.db.auditEvent.findFirst({
      where: { action: 'workflow.moved', targetId: String(file.id) },
    });
    expect(audit?.message).toBe(`Moved "${file.name}" at "Check" of workflow "${w.name}" to "Sign"`);
    const cancelled = await decide('admin', {
      file_id: file.id,
      workflow_step_id: w.steps[1],
      action: 'cancel',
    });
    expect(cancelled.json().data.run).toMatchObject({ status: 'cancelled', current_step: null });
    expect(await t.db.workflowTask.count({ where: { instance: { fileId: file.id }, status: 'open' } })).toBe(
      0,
    );
    const none = await decide('admin', { file_id: file.id, workflow_step_id: w.steps[1], action: 'cancel' });
    expect(none.statusCode).toBe(409);
    expect(none.json().message).toBe('This file is not running a workflow.');
  });
});

describe('notifications and e-mails of a transition', () => {
  it('tells who the step names, in the app and by e-mail, once, through jobs queued with the move', async () => {
    const w = await twoSteps({
      // Check tells no one: its default rule (entered, to its assignees) is taken away.
      check: { notifications: [] },
      sign: {
        notifications: [
          { event: 'entered', recipient: 'assignees', subject: '{file} waits for your signature' },
          { event: 'rejected', recipient: 'owner', email: false },
        ],
      },
    });
    const file = await invoice();
    await start('owner', w.id, [file.id]);
    await decide('alice', { file_id: file.id, workflow_step_id: w.steps[0], action: 'approve' });
    // Nothing is sent until the jobs run; then one notification each.
    expect(await t.db.notification.count({ where: { fileId: file.id } })).toBe(0);
    await t.app.jobs.runDue();
    await t.app.jobs.runDue();
    const rows = await t.db.notification.findMany({ where: { fileId: file.id }, orderBy: { userId: 'asc' } });
    expect(rows.map((r) => [r.userId, r.kind, r.title, r.link])).toEqual([
      [people.bob.id, 'workflow.entered', `${file.name} waits for your signature`, `/files/${file.id}`],
      [people.dave.id, 'workflow.entered', `${file.name} waits for your signature`, `/files/${file.id}`],
    ]);
    const mails = await t.db.mailJob.findMany({
      where: { kind: 'workflow', subject: `${file.name} waits for your signature` },
    });
    expect(mails.map((m) => m.to).sort()).toEqual(
      [
        (await t.db.user.findUniqueOrThrow({ where: { id: people.bob.id } })).email,
        (await t.db.user.findUniqueOrThrow({ where: { id: people.dave.id } })).email,
      ].sort(),
    );
    expect(mails[0]?.text).toContain(`/files/${file.id}`);

    await decide('bob', {
      file_id: file.id,
      workflow_step_id: w.steps[1],
      action: 'reject',
      comment: 'Unsigned',
    });
    await t.app.jobs.runDue();
    const toOwner = await t.db.notification.findMany({ where: { fileId: file.id, userId: people.owner.id } });
    expect(toOwner.map((r) => [r.kind, r.title])).toEqual([
      ['workflow.rejected', `"${file.name}" was rejected at "Sign"`],
    ]);
    expect(toOwner[0]?.body).toContain('Comment from Bob Test: Unsigned');
    expect(await t.db.mailJob.count({ where: { subject: `"${file.name}" was rejected at "Sign"` } })).toBe(0);
  });
});

describe('reading', () => {
  it('GET /api/folder-workflow-stage/{id}: a file that never ran a workflow has no run', async () => {
    const file = await invoice();
    const res = await as('carol', { method: 'GET', url: `/api/folder-workflow-stage/${file.id}` });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual({ file_id: file.id, file_name: file.name, run: null, history: [] });
    expect((await as('carol', { method: 'GET', url: '/api/folder-workflow-stage/999999' })).statusCode).toBe(
      404,
    );
  });

  it("GET /api/assigned-files pages the caller's work, soonest due first", async () => {
    const w = await designWorkflow(t, admin, {
      steps: [{ name: 'Due soon', users: [people.carol.id], due_hours: 2 }],
    });
    const relaxed = await designWorkflow(t, admin, {
      steps: [{ name: 'Whenever', users: [people.carol.id] }],
    });
    const a = await invoice();
    const b = await invoice();
    await start('owner', relaxed.id, [a.id]);
    await start('owner', w.id, [b.id]);
    const page = await as('carol', { method: 'GET', url: '/api/assigned-files?quantity=1' });
    expect(page.json().data).toMatchObject({ page: 1, quantity: 1, total: 2, last_page: 2 });
    expect(page.json().data.items[0]).toMatchObject({ file_id: b.id, step: { name: 'Due soon' } });
    expect(page.json().data.items[0].due_at).not.toBeNull();
    const bad = await as('carol', { method: 'GET', url: '/api/assigned-files?page=0' });
    expect(bad.statusCode).toBe(400);
  });

  it('GET /api/folders/workflow lists only the categories the caller may see', async () => {
    const {
      categories: { hidden },
    } = await seed(t, { categories: { hidden: { name: 'Board minutes' } } });
    const res = await as('carol', { method: 'GET', url: '/api/folders/workflow' });
    const ids = res.json().data.map((c: { id: number }) => c.id);
    expect(ids).toContain(category.id);
    expect(ids).not.toContain(hidden.id);
    expect(
      (await as('admin', { method: 'GET', url: '/api/folders/workflow' }))
        .json()
        .data.map((c: { id: number }) => c.id),
    ).toContain(hidden.id);
  });
});

describe('POST /api/workflow/dry_run', () => {
  it('offers the files of the categories the workflow serves, by name, that the caller sees', async () => {
    const {
      categories: { served },
    } = await seed(t, { users: { carol: people.carol }, categories: { served: { grants: { carol: [] } } } });
    const w = await designWorkflow(t, admin, {
      active: false,
      categoryIds: [served.id],
      steps: [{ name: 'A', users: [people.alice.id] }],
    });
    const inside = await createFile(t.db, t.app.deps.blobs, {
      ownerId: people.owner.id,
      categoryId: served.id,
      name: 'Report 100%.pdf',
    });
    await createFile(t.db, t.app.deps.blobs, {
      ownerId: people.owner.id,
      categoryId: served.id,
      name: 'Other.pdf',
    });
    const outside = await invoice();
    const res = await as('admin', { method: 'GET', url: `/api/workflow/dry_run/files?workflow_id=${w.id}` });
    expect(res.statusCode).toBe(200);
    const ids = res.json().data.map((f: { id: number }) => f.id);
    expect(ids).toContain(inside.id);
    expect(ids).not.toContain(outside.id);
    const found = await as('admin', {
      method: 'GET',
      url: `/api/workflow/dry_run/files?workflow_id=${w.id}&search=${encodeURIComponent('100%')}`,
    });
    expect(found.json().data).toEqual([
      { id: inside.id, name: 'Report 100%.pdf', category: { id: served.id, name: served.name } },
    ]);
    expect(
      (await as('admin', { method: 'GET', url: '/api/workflow/dry_run/files?workflow_id=999999' }))
        .statusCode,
    ).toBe(404);
  });

  it('lists every live metadata field for the designer to choose from', async () => {
    const w = await designWorkflow(t, admin, { active: false, steps: [] });
    const view = (await as('admin', { method: 'GET', url: `/api/view_workflow/${w.id}` })).json().data;
    expect(view.field_choices).toEqual(
      expect.arrayContaining([{ field_id: amount.id, name: 'Amount', type: 'number', options: [] }]),
    );
  });

  it('shows the step a file would enter and which conditions hold or fail, on a draft too', async () => {
    const w = await designWorkflow(t, admin, {
      active: false,
      steps: [
        {
          name: 'Check',
          users: [people.alice.id],
          conditions: [
            { mode: 'PRE', field_id: amount.id, operator: 'gt', value: '100' },
            { mode: 'PRE', field_id: amount.id, operator: 'lt', value: '10', join: 'or' },
          ],
        },
        {
          name: 'Sign',
          users: [people.bob.id],
          conditions: [{ mode: 'PRE', field_id: amount.id, operator: 'lt', value: '1000' }],
        },
      ],
    });
    const small = await invoice(50);
    const res = await as('admin', {
      method: 'POST',
      url: '/api/workflow/dry_run',
      payload: { workflow_id: w.id, file_id: small.id },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({
      entry_step: { id: w.steps[0], name: 'Check' },
      would_start: false,
      reason: `"${small.name}" would not enter "Check": its PRE conditions fail.`,
    });
    expect(res.json().data.steps[0].pre).toEqual({
      holds: false,
      conditions: [
        expect.objectContaining({
          field_name: 'Amount',
          operator: 'gt',
          expected: '100',
          actual: '50',
          holds: false,
        }),
        expect.objectContaining({ operator: 'lt', expected: '10', actual: '50', join: 'or', holds: false }),
      ],
    });
    expect(res.json().data.steps[1].pre.holds).toBe(true);
    const big = await invoice(500);
    const ok = (
      await as('admin', {
        method: 'POST',
        url: '/api/workflow/dry_run',
        payload: { workflow_id: w.id, file_id: big.id },
      })
    ).json().data;
    expect(ok).toMatchObject({
      would_start: false,
      reason: `"${big.name}" would enter "Check" once the workflow is activated.`,
    });
    expect(ok.steps[0].pre.holds).toBe(true);
    const before = await workflowCounts(t);
    expect(before.instances).toBe((await workflowCounts(t)).instances);
    expect(
      (
        await as('admin', {
          method: 'POST',
          url: '/api/workflow/dry_run',
          payload: { workflow_id: w.id, file_id: 999999 },
        })
      ).statusCode,
    ).toBe(404);
  });
});

describe('the step decides who edits a file in a run', () => {
  it("lets the current step's assignees and File Control writers change the file; refuses others (403)", async () => {
    const w = await twoSteps();
    const file = await invoice();
    const authOf = async (who: keyof typeof people | 'admin'): Promise<AuthContext> => ({
      sessionId: 'test',
      userId: who === 'admin' ? adminId : people[who].id,
      username: who,
      accessType: who === 'admin' ? 'File Control Admin' : 'General staff',
      role: who === 'admin' ? 'admin' : 'user',
      twoFactorPending: false,
      expiresAt: new Date(Date.now() + 3_600_000),
    });
    // Not in a run: the grants decide, not the workflow.
    await expect(
      assertStepAllowsEdit(t.app.deps.db, await authOf('owner'), [file.id]),
    ).resolves.toBeUndefined();
    await start('owner', w.id, [file.id]);
    await expect(assertStepAllowsEdit(t.app.deps.db, await authOf('owner'), [file.id])).rejects.toMatchObject(
      {
        statusCode: 403,
        code: 'workflow.step_holds_file',
        message: `"${file.name}" is in the workflow step "Check": only that step's assignees may change it now.`,
      },
    );
    await expect(
      assertStepAllowsEdit(t.app.deps.db, await authOf('alice'), [file.id]),
    ).resolves.toBeUndefined();
    await expect(
      assertStepAllowsEdit(t.app.deps.db, await authOf('admin'), [file.id]),
    ).resolves.toBeUndefined();
    await decide('alice', { file_id: file.id, workflow_step_id: w.steps[0], action: 'approve' });
    await expect(assertStepAllowsEdit(t.app.deps.db, await authOf('alice'), [file.id])).rejects.toMatchObject(
      {
        statusCode: 403,
      },
    );
    await expect(
      assertStepAllowsEdit(t.app.deps.db, await authOf('bob'), [file.id]),
    ).resolves.toBeUndefined();
  });
});

describe('a workflow that serves categories starts only on their files', () => {
  it('refuses the whole call (400 naming the files outside them), starting nothing', async () => {
    const {
      categories: { elsewhere },
    } = await seed(t, {
      users: { owner: people.owner },
      categories: { elsewhere: { grants: { owner: ['edit'] } } },
    });
    const served = await designWorkflow(t, admin, {
      categoryIds: [category.id],
      steps: [{ name: 'Check', users: [people.alice.id] }],
    });
    const inside = await invoice();
    const outside = await createFile(t.db, t.app.deps.blobs, {
      ownerId: people.owner.id,
      categoryId: elsewhere.id,
      name: 'stray.txt',
    });
    const before = await workflowCounts(t);
    const res = await start('owner', served.id, [inside.id, outside.id]);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().message).toBe(
      `"${served.name}" runs only on files of the categories it serves: "stray.txt" is in another category. Nothing was started.`,
    );
    expect(res.json().errors).toEqual([{ path: 'body.file_ids', message: res.json().message }]);
    expect(await workflowCounts(t)).toEqual(before);
    // the files of its categories start; a workflow serving none starts on any file
    expect((await start('owner', served.id, [inside.id])).statusCode).toBe(200);
    const anywhere = await designWorkflow(t, admin, { steps: [{ name: 'Any', users: [people.alice.id] }] });
    expect((await start('owner', anywhere.id, [outside.id])).statusCode).toBe(200);
  });
});
