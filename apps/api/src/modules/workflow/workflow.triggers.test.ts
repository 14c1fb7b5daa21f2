import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callAs } from '../../../test/access.js';
import type { TestContext } from '../../../test/app.js';
import { createCategory, createFile, setFileValues } from '../../../test/factories.js';
import { seed, seededApp } from '../../../test/seed.js';
import { api, designWorkflow, stageOf, startWorkflow } from '../../../test/workflows.js';
import { emitFileEvent, type FileEvent } from '../../lib/file-events.js';
import { notifyTransition } from './run.notify.js';
import { runClock } from './run.triggers.js';

// What starts or moves runs without a person: file events (indexed into a category, values
// changed, moved to the trash) arrive as jobs; dates and due times are looked at by the
// `workflow.clock` schedule. The files area emits the events; here the tests emit them.

const HOUR = 3_600_000;
/** The app's clock runs with the real one, `ahead` milliseconds in front. */
let ahead = 0;
let t: TestContext;
let admin: string;
let owner: { id: number };
let alice: { id: number; token: string };
let escalation: { id: number };
let amount: { id: number };
let status: { id: number };
let payBy: { id: number };

beforeAll(async () => {
  const world = await seededApp(
    {
      users: {
        admin: { accessType: 'COMPANY ADMIN' },
        owner: { signIn: false },
        alice: { firstName: 'Alice', lastName: 'Test' },
        escalation: { firstName: 'Esme', lastName: 'Lead', signIn: false },
      },
      fields: {
        amount: { name: 'Amount', type: 'number' },
        status: { name: 'Status', type: 'select', items: ['Draft', 'Ready'] },
        payBy: { name: 'Pay by', type: 'date' },
      },
    },
    {},
    { now: () => new Date(Date.now() + ahead) },
  );
  ({
    t,
    users: { owner, alice, escalation },
    fields: { amount, status, payBy },
  } = world);
  admin = world.users.admin.token;
});
afterAll(() => t.close());

const emit = (event: FileEvent) => t.db.$transaction((tx) => emitFileEvent(tx, event));

async function indexedFile(
  categoryId: number,
  values: Array<{ fieldId: number; value: string | number | null }>,
) {
  const file = await createFile(t.db, t.app.deps.blobs, { ownerId: owner.id, categoryId });
  await setFileValues(t.db, file.id, values);
  await emit({
    type: 'indexed',
    file_id: file.id,
    category_id: categoryId,
    field_ids: values.map((v) => v.fieldId),
    actor_id: owner.id,
  });
  return file;
}

/** Files of the owner's, by name, alone in a new category that grants nothing. */
const ownersFiles = <const F extends string>(...names: F[]) =>
  seed(t, {
    categories: { category: {} },
    files: Object.fromEntries(names.map((name) => [name, { owner, category: 'category' }])) as Record<
      F,
      { owner: { id: number }; category: 'category' }
    >,
  });
/** A file of the owner's, alone in a new category. */
const ownersFileInNewCategory = async () => (await ownersFiles('file')).files.file;
const runOf = (fileId: number) =>
  t.db.workflowInstance.findFirst({ where: { fileId }, orderBy: { id: 'desc' } });

describe('a file indexed into a category', () => {
  it('starts the workflow serving it at the on-index step when the PRE conditions hold; otherwise says why, in the audit', async () => {
    const category = await createCategory(t.db);
    const w = await designWorkflow(t, admin, {
      categoryIds: [category.id],
      steps: [
        {
          name: 'Check',
          users: [alice.id],
          triggers: [{ kind: 'on_index' }],
          conditions: [{ mode: 'PRE', field_id: amount.id, operator: 'gt', value: '100' }],
        },
      ],
    });
    const big = await indexedFile(category.id, [{ fieldId: amount.id, value: 500 }]);
    const small = await indexedFile(category.id, [{ fieldId: amount.id, value: 5 }]);
    expect(await runOf(big.id)).toBeNull();
    await t.app.jobs.runDue();
    expect(await runOf(big.id)).toMatchObject({
      workflowId: w.id,
      currentStepId: w.steps[0],
      status: 'running',
      startedById: owner.id,
    });
    expect(await runOf(small.id)).toBeNull();
    const why = await t.db.auditEvent.findFirst({
      where: { action: 'workflow.not_started', targetId: String(small.id) },
    });
    expect(why?.message).toBe(
      `Workflow "${w.name}" did not start on "${small.name}": "Check" needs Amount is greater than 100 (it is 5)`,
    );
    // The same event again (a retried job, a second server) starts nothing more.
    await emit({ type: 'indexed', file_id: big.id, category_id: category.id, actor_id: owner.id });
    await t.app.jobs.runDue();
    expect(await t.db.workflowInstance.count({ where: { fileId: big.id } })).toBe(1);
    expect(
      (await callAs(t, alice.token, { method: 'GET', url: '/api/assigned-files' }))
        .json()
        .data.items.map((i: { file_id: number }) => i.file_id),
    ).toContain(big.id);
  });

  it('starts nothing for a draft workflow, or one whose on-index trigger the admin removed', async () => {
    const draftCategory = await createCategory(t.db);
    await designWorkflow(t, admin, {
      active: false,
      categoryIds: [draftCategory.id],
      steps: [{ name: 'A', users: [alice.id], triggers: [{ kind: 'on_index' }] }],
    });
    const manualCategory = await createCategory(t.db);
    const manual = await designWorkflow(t, admin, {
      categoryIds: [manualCategory.id],
      steps: [{ name: 'A', users: [alice.id] }],
    });
    // Activation gave its first step an on-index trigger; the admin takes it away.
    const [added] = await api<Array<{ id: number; kind: string }>>(t, admin, {
      method: 'GET',
      url: `/api/get_trigger/${manual.steps[0]}`,
    });
    expect(added?.kind).toBe('on_index');
    await api(t, admin, { method: 'DELETE', url: `/api/del_trigger/${added?.id}` });
    const a = await indexedFile(draftCategory.id, []);
    const b = await indexedFile(manualCategory.id, []);
    await t.app.jobs.runDue();
    expect(await runOf(a.id)).toBeNull();
    expect(await runOf(b.id)).toBeNull();
  });

  it('a file moved into the category starts it too', async () => {
    const {
      categories: { category },
      files: { file },
    } = await ownersFiles('file');
    await designWorkflow(t, admin, {
      categoryIds: [category.id],
      steps: [{ name: 'A', users: [alice.id], triggers: [{ kind: 'on_index' }] }],
    });
    await emit({ type: 'moved', file_id: file.id, category_id: category.id, actor_id: owner.id });
    await t.app.jobs.runDue();
    expect((await runOf(file.id))?.status).toBe('running');
  });
});

describe('a metadata value changed', () => {
  it('moves a run waiting in the step when the watched field takes the value', async () => {
    const w = await designWorkflow(t, admin, {
      steps: [
        {
          name: 'Prepare',
          users: [alice.id],
          triggers: [{ kind: 'on_field_change', field_id: status.id, value: 'Ready' }],
        },
        { name: 'Approve', users: [alice.id] },
      ],
    });
    const file = await ownersFileInNewCategory();
    await startWorkflow(t, admin, w.id, [file.id]);
    await setFileValues(t.db, file.id, [{ fieldId: status.id, value: 1 }]);
    await emit({ type: 'values_changed', file_id: file.id, field_ids: [status.id], actor_id: owner.id });
    await t.app.jobs.runDue();
    expect((await runOf(file.id))?.currentStepId).toBe(w.steps[0]);
    await setFileValues(t.db, file.id, [{ fieldId: status.id, value: 2 }]);
    await emit({ type: 'values_changed', file_id: file.id, field_ids: [amount.id], actor_id: owner.id });
    await t.app.jobs.runDue();
    expect((await runOf(file.id))?.currentStepId).toBe(w.steps[0]);
    await emit({ type: 'values_changed', file_id: file.id, field_ids: [status.id], actor_id: owner.id });
    await t.app.jobs.runDue();
    expect((await runOf(file.id))?.currentStepId).toBe(w.steps[1]);
    const last = (await stageOf(t, admin, file.id)).history[0];
    expect(last).toMatchObject({
      kind: 'triggered',
      from_step: { name: 'Prepare' },
      to_step: { name: 'Approve' },
      acted_by: null,
    });
  });
});

describe('a file moved to the trash', () => {
  it('cancels its run', async () => {
    const w = await designWorkflow(t, admin, { steps: [{ name: 'A', users: [alice.id] }] });
    const file = await ownersFileInNewCategory();
    await startWorkflow(t, admin, w.id, [file.id]);
    await emit({ type: 'deleted', file_id: file.id, actor_id: owner.id });
    await t.app.jobs.runDue();
    expect((await runOf(file.id))?.status).toBe('cancelled');
    expect(await t.db.workflowTask.count({ where: { instance: { fileId: file.id }, status: 'open' } })).toBe(
      0,
    );
  });
});

describe('the clock', () => {
  it('escalates an overdue run once: the named user gets the work and hears of it', async () => {
    const w = await designWorkflow(t, admin, {
      steps: [
        {
          name: 'Reply',
          users: [alice.id],
          due_hours: 4,
          triggers: [{ kind: 'overdue', escalate_user_id: escalation.id }],
          notifications: [{ event: 'overdue', recipient: 'assignees' }],
        },
      ],
    });
    const file = await ownersFileInNewCategory();
    await startWorkflow(t, admin, w.id, [file.id]);
    await runClock(t.app.deps);
    expect((await runOf(file.id))?.overdueAt).toBeNull();
    ahead += 5 * HOUR;
    try {
      expect((await runClock(t.app.deps)).escalated).toBeGreaterThanOrEqual(1);
      expect((await runClock(t.app.deps)).escalated).toBe(0);
      const stage = await stageOf(t, admin, file.id);
      expect(stage.run?.overdue).toBe(true);
      expect(stage.run?.assignees.map((a) => [a.name, a.status])).toEqual([
        ['Alice Test', 'open'],
        ['Esme Lead', 'open'],
      ]);
      expect(stage.history.filter((h) => h.kind === 'escalated')).toHaveLength(1);
      await t.app.jobs.runDue();
      const told = await t.db.notification.findMany({
        where: { fileId: file.id },
        orderBy: { userId: 'asc' },
      });
      expect(told.map((n) => [n.userId, n.kind])).toEqual([
        [alice.id, 'workflow.overdue'],
        [escalation.id, 'workflow.escalated'],
      ]);
    } finally {
      ahead -= 5 * HOUR;
    }
  });

  it('moves runs whose date field is reached, and runs a schedule has passed since they entered', async () => {
    const byDate = await designWorkflow(t, admin, {
      steps: [
        { name: 'Wait', users: [alice.id], triggers: [{ kind: 'on_date', field_id: payBy.id }] },
        { name: 'Pay', users: [alice.id] },
      ],
    });
    const bySchedule = await designWorkflow(t, admin, {
      steps: [
        { name: 'Hold', users: [alice.id], triggers: [{ kind: 'on_date', cron: '0 0 * * *' }] },
        { name: 'Release', users: [alice.id] },
      ],
    });
    const { due, later, held } = (await ownersFiles('due', 'later', 'held')).files;
    const day = (offset: number) => new Date(Date.now() + offset * 24 * HOUR).toISOString().slice(0, 10);
    await setFileValues(t.db, due.id, [{ fieldId: payBy.id, value: day(-1) }]);
    await setFileValues(t.db, later.id, [{ fieldId: payBy.id, value: day(3) }]);
    const start = (workflowId: number, ids: number[]) => startWorkflow(t, admin, workflowId, ids);
    await start(byDate.id, [due.id, later.id]);
    await start(bySchedule.id, [held.id]);
    await runClock(t.app.deps);
    expect((await runOf(due.id))?.currentStepId).toBe(byDate.steps[1]);
    expect((await runOf(later.id))?.currentStepId).toBe(byDate.steps[0]);
    expect((await runOf(held.id))?.currentStepId).toBe(bySchedule.steps[0]);
    ahead += 25 * HOUR;
    try {
      await runClock(t.app.deps);
      expect((await runOf(held.id))?.currentStepId).toBe(bySchedule.steps[1]);
    } finally {
      ahead -= 25 * HOUR;
    }
  });

  it('is a schedule of the job runner, fired once per due time', async () => {
    await t.app.jobs.tickSchedules(); // first look: starts from the next due time
    ahead += 2 * 60_000;
    try {
      const fired = await t.app.jobs.tickSchedules();
      expect(fired).toBeGreaterThanOrEqual(1);
      expect(await t.db.job.count({ where: { kind: 'workflow.clock', status: 'queued' } })).toBe(1);
      await t.app.jobs.tickSchedules();
      expect(await t.db.job.count({ where: { kind: 'workflow.clock', status: 'queued' } })).toBe(1);
      await t.app.jobs.runDue();
      expect(await t.db.job.count({ where: { kind: 'workflow.clock', status: 'done' } })).toBe(1);
    } finally {
      ahead -= 2 * 60_000;
    }
  });
});

describe('the notify job', () => {
  it("makes a transition's notifications once, even when it runs twice", async () => {
    const w = await designWorkflow(t, admin, {
      steps: [
        { name: 'Look', users: [alice.id], notifications: [{ event: 'entered', recipient: 'assignees' }] },
      ],
    });
    const file = await ownersFileInNewCategory();
    await startWorkflow(t, admin, w.id, [file.id]);
    const started = await t.db.workflowTransition.findFirstOrThrow({
      where: { instance: { fileId: file.id } },
    });
    await notifyTransition(t.app.deps, started.id);
    await notifyTransition(t.app.deps, started.id);
    await t.app.jobs.runDue();
    expect(await t.db.notification.count({ where: { fileId: file.id } })).toBe(1);
    expect(await t.db.mailJob.count({ where: { subject: `"${file.name}" is waiting in "Look"` } })).toBe(1);
  });
});
