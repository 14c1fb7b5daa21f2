import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callAs, expectAccess, FILE_CONTROL_CALLERS, readCaseOf, writeCase } from '../../../test/access.js';
import type { TestContext } from '../../../test/app.js';
import { errorPaths } from '../../../test/errors.js';
import { createFile, setFileValues } from '../../../test/factories.js';
import { auditedInTurn } from '../../../test/in-turn.js';
import { seed, seededApp } from '../../../test/seed.js';
import { written, writtenSince } from '../../../test/written.js';
import { retentionScanJob } from './retention.jobs.js';

// Retention rules (per category, inherited unless overridden), legal holds (set, listed,
// released with a reason, audited), and dispositions: the daily scan lists what is due under
// each kind of start (upload, a date field, the end of a workflow run), approval carries out
// the rule's action, postponing brings it back later. File Control writers manage; the
// Auditor reads; everyone else is refused.

const DAY = 86_400_000;
let clock = new Date('2026-11-26T09:00:00.000Z');
let t: TestContext;
let admin: string;
let adminId: number;

const call = (opts: InjectOptions, token: string | null = admin) => callAs(t, token, opts);
const put = (categoryId: number, payload: object) =>
  call({ method: 'PUT', url: `/api/retention/categories/${categoryId}/rule`, payload });
/** A file of the admin's in a category, created `ageDays` before the clock when given. */
/** A new category whose rule trashes its files a day after their upload. */
async function categoryTrashingAfterADay() {
  const {
    categories: { category },
  } = await seed(t, { categories: { category: {} } });
  const res = await put(category.id, { keep_for: 1, unit: 'days', start_from: 'upload', action: 'trash' });
  expect(res.statusCode, res.body).toBe(200);
  return category;
}

async function fileIn(categoryId: number, name: string, ageDays?: number) {
  const file = await createFile(t.db, t.app.deps.blobs, { ownerId: adminId, categoryId, name });
  if (ageDays !== undefined)
    await t.db.file.update({
      where: { id: file.id },
      data: { createdAt: new Date(clock.getTime() - ageDays * DAY) },
    });
  return file;
}
const ruleOf = (categoryId: number) =>
  call({ method: 'GET', url: `/api/retention/categories/${categoryId}/rule` });
const scan = async () => {
  await t.db.job.create({
    data: { kind: retentionScanJob.kind, payload: { due_at: clock.toISOString() }, runAt: clock },
  });
  const summary = await t.app.jobs.runDue();
  expect(summary.failed).toBe(0);
};
const pending = async () =>
  (await call({ method: 'GET', url: '/api/retention/dispositions?status=pending&quantity=100' })).json().data;
const auditCount = (action: string) => t.db.auditEvent.count({ where: { action } });

beforeAll(async () => {
  let user: { id: number; token: string };
  ({
    t,
    users: { user },
  } = await seededApp({ users: { user: { accessType: 'File Control Admin' } } }, {}, { now: () => clock }));
  adminId = user.id;
  admin = user.token;
}, 60_000);
afterAll(() => t.close());

describe('retention rules', () => {
  it('sets a rule on a category, which its sub-categories inherit until they have their own', async () => {
    const {
      categories: { parent, child },
      groups: { group },
    } = await seed(t, {
      groups: { group: [{ id: adminId }] },
      categories: { parent: { name: 'Contracts' }, child: { name: 'Leases', parent: 'parent' } },
    });
    const before = await auditCount('retention.rule_set');
    const res = await put(parent.id, { keep_for: 7, unit: 'years', start_from: 'upload', action: 'purge' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({
      category: { id: parent.id, name: 'Contracts' },
      keep_for: 7,
      unit: 'years',
      summary: 'Keep 7 years from upload, then purge',
    });
    expect(await auditCount('retention.rule_set')).toBe(before + 1);

    const inherited = (await ruleOf(child.id)).json().data;
    expect(inherited).toMatchObject({
      own: null,
      effective: { summary: 'Keep 7 years from upload, then purge' },
      inherited_from: { id: parent.id, name: 'Contracts' },
    });

    const own = await put(child.id, {
      keep_for: 30,
      unit: 'days',
      start_from: 'upload',
      action: 'review',
      review_group_id: group.id,
    });
    expect(own.statusCode, own.body).toBe(200);
    const overridden = (await ruleOf(child.id)).json().data;
    expect(overridden.inherited_from).toBeNull();
    expect(overridden.effective.summary).toBe(`Keep 30 days from upload, then review by "${group.name}"`);

    // Removing the child's own rule: it inherits again.
    const del = await call({ method: 'DELETE', url: `/api/retention/categories/${child.id}/rule` });
    expect(del.statusCode, del.body).toBe(200);
    expect((await ruleOf(child.id)).json().data.inherited_from).toMatchObject({ id: parent.id });
    expect(
      (await call({ method: 'DELETE', url: `/api/retention/categories/${child.id}/rule` })).statusCode,
    ).toBe(404);
  });

  it('refuses a bad rule with 400 naming the field, and stores nothing', async () => {
    const {
      categories: { category },
      fields: { text },
    } = await seed(t, { fields: { text: { type: 'text' } }, categories: { category: {} } });
    const cases: Array<[object, string]> = [
      [{ keep_for: 0, unit: 'days', start_from: 'upload', action: 'trash' }, 'body.keep_for'],
      [{ keep_for: 1, unit: 'weeks', start_from: 'upload', action: 'trash' }, 'body.unit'],
      [{ keep_for: 1, unit: 'days', start_from: 'field_date', action: 'trash' }, 'body.date_field_id'],
      [{ keep_for: 1, unit: 'days', start_from: 'upload', action: 'review' }, 'body.review_group_id'],
      [
        { keep_for: 1, unit: 'days', start_from: 'field_date', date_field_id: text.id, action: 'trash' },
        'body.date_field_id',
      ],
      [
        { keep_for: 1, unit: 'days', start_from: 'upload', action: 'review', review_group_id: 999999 },
        'body.review_group_id',
      ],
    ];
    const rules = await t.db.retentionRule.count();
    for (const [payload, path] of cases) {
      const res = await put(category.id, payload);
      expect(res.statusCode, res.body).toBe(400);
      expect(errorPaths(res)).toContain(path);
    }
    expect(await t.db.retentionRule.count()).toBe(rules);
    expect(
      (await put(999999, { keep_for: 1, unit: 'days', start_from: 'upload', action: 'trash' })).statusCode,
    ).toBe(404);
  });

  it('takes rules of one category sent at once one after the other, each audit starting where the last ended', async () => {
    const {
      categories: { category },
    } = await seed(t, { categories: { category: { name: 'Receipts' } } });
    const answers = await Promise.all(
      [1, 2, 3, 4, 5, 6, 7, 8].map((keep_for) =>
        put(category.id, { keep_for, unit: 'years', start_from: 'upload', action: 'purge' }),
      ),
    );
    expect(answers.map((r) => r.statusCode)).toEqual(answers.map(() => 200));
    const last = await auditedInTurn(t, { action: 'retention.rule_set', targetId: category.id, start: null });
    expect((await ruleOf(category.id)).json().data.own.summary).toBe(last);
  });
});

describe('legal holds', () => {
  it('sets a hold naming who and why, lists it, and releases it once with an audited reason', async () => {
    const {
      files: { file },
    } = await seed(t, {
      categories: { category: {} },
      files: { file: { owner: { id: adminId }, category: 'category', name: 'nda.pdf' } },
    });
    const set = await call({
      method: 'POST',
      url: '/api/retention/holds',
      payload: { target: 'file', target_id: file.id, reason: 'Subpoena 42' },
    });
    expect(set.statusCode, set.body).toBe(200);
    const hold = set.json().data;
    expect(hold).toMatchObject({
      target: 'file',
      target_id: file.id,
      target_name: 'nda.pdf',
      reason: 'Subpoena 42',
      file_count: 1,
      released_at: null,
    });
    expect(hold.set_by.id).toBe(adminId);
    const active = (await call({ method: 'GET', url: '/api/retention/holds' })).json().data.items;
    expect(active.map((h: { id: number }) => h.id)).toContain(hold.id);

    const released = await call({
      method: 'POST',
      url: `/api/retention/holds/${hold.id}/release`,
      payload: { reason: 'Case closed' },
    });
    expect(released.statusCode, released.body).toBe(200);
    expect(released.json().data).toMatchObject({
      release_reason: 'Case closed',
      released_by: { id: adminId },
    });
    const event = await t.db.auditEvent.findFirstOrThrow({
      where: { action: 'retention.hold_released' },
      orderBy: { id: 'desc' },
    });
    expect(event.message).toContain('Case closed');
    expect(event.details).toMatchObject({ set_reason: 'Subpoena 42', hold_id: hold.id });
    const twice = await call({
      method: 'POST',
      url: `/api/retention/holds/${hold.id}/release`,
      payload: { reason: 'Again' },
    });
    expect(twice.statusCode).toBe(409);
    const list = (await call({ method: 'GET', url: '/api/retention/holds?status=released' })).json().data
      .items;
    expect(list.map((h: { id: number }) => h.id)).toContain(hold.id);
  });

  it('refuses a hold without a reason or on nothing, and stores nothing', async () => {
    const holds = await t.db.legalHold.count();
    for (const [payload, path] of [
      [{ target: 'file', target_id: 1, reason: ' ' }, 'body.reason'],
      [{ target: 'category', target_id: 999999, reason: 'x' }, 'body.target_id'],
    ] as const) {
      const res = await call({ method: 'POST', url: '/api/retention/holds', payload });
      expect(res.statusCode).toBe(400);
      expect(errorPaths(res)[0]).toBe(path);
    }
    // Another person's saved search is not the caller's to hold.
    const {
      users: { other },
    } = await seed(t, { users: { other: { signIn: false } } });
    const view = await t.db.savedView.create({
      data: { userId: other.id, name: 'Theirs', query: { locked: true, fields: [] } },
    });
    const theirs = await call({
      method: 'POST',
      url: '/api/retention/holds',
      payload: { target: 'saved_view', target_id: view.id, reason: 'x' },
    });
    expect(theirs.statusCode).toBe(400);
    expect(await t.db.legalHold.count()).toBe(holds);
  });
});

describe('dispositions', () => {
  it('the daily scan lists what is due from upload, a date field and a workflow end, once', async () => {
    const {
      fields: { dateField },
      categories: { byUpload, byField, byWorkflow },
    } = await seed(t, {
      fields: { dateField: { type: 'date', name: 'Contract end' } },
      categories: {
        byUpload: { name: 'Invoices' },
        byField: { name: 'Agreements', fields: ['dateField'] },
        byWorkflow: { name: 'Claims' },
      },
    });
    expect(
      (await put(byUpload.id, { keep_for: 10, unit: 'days', start_from: 'upload', action: 'trash' }))
        .statusCode,
    ).toBe(200);
    expect(
      (
        await put(byField.id, {
          keep_for: 1,
          unit: 'months',
          start_from: 'field_date',
          date_field_id: dateField.id,
          action: 'purge',
        })
      ).statusCode,
    ).toBe(200);
    expect(
      (await put(byWorkflow.id, { keep_for: 1, unit: 'years', start_from: 'workflow_end', action: 'trash' }))
        .statusCode,
    ).toBe(200);

    await fileIn(byUpload.id, 'old.txt', 11);
    await fileIn(byUpload.id, 'young.txt', 9);
    const ended = await fileIn(byField.id, 'ended.txt');
    await setFileValues(t.db, ended.id, [{ fieldId: dateField.id, value: '2026-09-30' }]);
    const running = await fileIn(byField.id, 'running.txt');
    await setFileValues(t.db, running.id, [{ fieldId: dateField.id, value: '2026-11-01' }]);
    await fileIn(byField.id, 'no-date.txt');
    const claim = await fileIn(byWorkflow.id, 'claim.txt');
    const workflow = await t.db.workflow.create({ data: { name: `Claims flow ${Date.now()}` } });
    await t.db.workflowInstance.create({
      data: {
        fileId: claim.id,
        workflowId: workflow.id,
        status: 'completed',
        finishedAt: new Date(clock.getTime() - 400 * DAY),
      },
    });

    await scan();
    const names = (await pending()).items.map((d: { file: { name: string } }) => d.file.name).sort();
    expect(names).toEqual(expect.arrayContaining(['claim.txt', 'ended.txt', 'old.txt']));
    for (const n of ['young.txt', 'running.txt', 'no-date.txt']) expect(names).not.toContain(n);
    const first = (await pending()).items.find(
      (d: { file: { name: string } }) => d.file.name === 'ended.txt',
    );
    expect(first).toMatchObject({
      action: 'purge',
      rule_summary: 'Keep 1 month from its "Contract end" date, then purge',
      status: 'pending',
    });
    expect(first.due_at.slice(0, 10)).toBe('2026-10-30');
    expect(await auditCount('retention.disposition_listed')).toBeGreaterThan(0);

    // A second scan lists nothing twice, nor does one asked for by a person.
    const total = (await pending()).total;
    await scan();
    expect((await pending()).total).toBe(total);
    const asked = await call({ method: 'POST', url: '/api/retention/dispositions/scan' });
    expect(asked.statusCode, asked.body).toBe(200);
    expect(asked.json().data).toEqual({ listed: 0, reopened: 0 });
    expect((await pending()).total).toBe(total);
  });

  it('a review falls due as a task for its group: each active member is told once', async () => {
    const {
      users: { reviewer },
      groups: { group },
      categories: { category },
    } = await seed(t, {
      users: { reviewer: { signIn: false }, away: { status: 'deactivated', signIn: false } },
      groups: { group: ['reviewer', 'away'] },
      categories: { category: { name: 'Personnel' } },
    });
    const set = await put(category.id, {
      keep_for: 3,
      unit: 'days',
      start_from: 'upload',
      action: 'review',
      review_group_id: group.id,
    });
    expect(set.statusCode, set.body).toBe(200);
    const file = await fileIn(category.id, 'cv.pdf', 4);
    await scan();
    await scan();
    const told = await t.db.notification.findMany({ where: { kind: 'retention.review', fileId: file.id } });
    expect(told.map((n) => n.userId)).toEqual([reviewer.id]);
    expect(told[0]).toMatchObject({ title: 'Retention review due: "cv.pdf"', link: `/files/${file.id}` });
    const listed = (await pending()).items.find((d: { file: { id: number } }) => d.file.id === file.id);
    expect(listed).toMatchObject({ action: 'review', review_group: { id: group.id } });
  });

  it('approve carries out the rule (trash), postpone brings it back later; both audited with the rule', async () => {
    const category = await categoryTrashingAfterADay();
    const a = await fileIn(category.id, 'a.txt');
    const b = await fileIn(category.id, 'b.txt');
    await t.db.file.updateMany({
      where: { id: { in: [a.id, b.id] } },
      data: { createdAt: new Date(clock.getTime() - 2 * DAY) },
    });
    await scan();
    const mine = (await pending()).items.filter((d: { file: { id: number } }) =>
      [a.id, b.id].includes(d.file.id),
    );
    expect(mine).toHaveLength(2);
    const [da, db] = mine.sort(
      (x: { file: { id: number } }, y: { file: { id: number } }) => x.file.id - y.file.id,
    );

    const bad = await call({
      method: 'POST',
      url: '/api/retention/dispositions/decide',
      payload: { ids: [da.id], decision: 'postpone' },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors[0].path).toBe('body.postpone_days');

    const approved = await call({
      method: 'POST',
      url: '/api/retention/dispositions/decide',
      payload: { ids: [da.id], decision: 'approve' },
    });
    expect(approved.statusCode, approved.body).toBe(200);
    expect((await t.db.file.findUniqueOrThrow({ where: { id: a.id } })).deletedAt).not.toBeNull();
    const event = await t.db.auditEvent.findFirstOrThrow({
      where: { action: 'retention.disposition_approved' },
      orderBy: { id: 'desc' },
    });
    expect(event.details).toMatchObject({
      disposition_id: da.id,
      rule_summary: 'Keep 1 day from upload, then move to the trash',
    });
    const again = await call({
      method: 'POST',
      url: '/api/retention/dispositions/decide',
      payload: { ids: [da.id, db.id], decision: 'approve' },
    });
    expect(again.statusCode).toBe(409);
    expect((await t.db.file.findUniqueOrThrow({ where: { id: b.id } })).deletedAt).toBeNull();

    const postponed = await call({
      method: 'POST',
      url: '/api/retention/dispositions/decide',
      payload: { ids: [db.id], decision: 'postpone', postpone_days: 30 },
    });
    expect(postponed.statusCode, postponed.body).toBe(200);
    expect(postponed.json().data.items[0]).toMatchObject({ status: 'postponed' });
    expect((await pending()).items.map((d: { id: number }) => d.id)).not.toContain(db.id);
    // The scan a month later (sessions keep to the present clock: it goes back after).
    const now = clock;
    clock = new Date(now.getTime() + 31 * DAY);
    await scan();
    clock = now;
    expect((await pending()).items.map((d: { id: number }) => d.id)).toContain(db.id);
  });

  it('postpones many at once, one audit event each in the order answered', async () => {
    const category = await categoryTrashingAfterADay();
    const files = [
      await fileIn(category.id, 'p.txt'),
      await fileIn(category.id, 'q.txt'),
      await fileIn(category.id, 'r.txt'),
    ];
    await t.db.file.updateMany({
      where: { id: { in: files.map((f) => f.id) } },
      data: { createdAt: new Date(clock.getTime() - 2 * DAY) },
    });
    await scan();
    const ids = (await pending()).items
      .filter((d: { file: { id: number } }) => files.some((f) => f.id === d.file.id))
      .map((d: { id: number }) => d.id);
    expect(ids).toHaveLength(3);
    const mark = await written(t);
    const res = await call({
      method: 'POST',
      url: '/api/retention/dispositions/decide',
      payload: { ids: [...ids].reverse(), decision: 'postpone', postpone_days: 7 },
    });
    expect(res.statusCode, res.body).toBe(200);
    const items = res.json().data.items as Array<{ id: number; file: { id: number; name: string } }>;
    const until = new Date(clock.getTime() + 7 * DAY).toISOString();
    const summary = 'Keep 1 day from upload, then move to the trash';
    expect((await writtenSince(t, mark)).audit).toEqual(
      items.map((d) => ({
        userId: adminId,
        type: 'retention',
        action: 'retention.disposition_postponed',
        message: `Postponed the disposition of "${d.file.name}" to ${until.slice(0, 10)} under the rule "${summary}"`,
        targetType: 'file',
        targetId: String(d.file.id),
        details: {
          disposition_id: d.id,
          rule_id: expect.any(Number),
          rule_summary: summary,
          action: 'trash',
          postponed_until: until,
        },
      })),
    );
  });

  it('approves many at once: each approval audited, then its file trashed or purged, in answer order', async () => {
    const {
      groups: { reviewers },
      categories: { trashing, purging, reviewing },
    } = await seed(t, {
      users: { checker: { signIn: false } },
      groups: { reviewers: ['checker'] },
      categories: { trashing: {}, purging: {}, reviewing: {} },
    });
    const rule = { keep_for: 1, unit: 'days', start_from: 'upload' };
    for (const [category, more] of [
      [trashing, { action: 'trash' }],
      [purging, { action: 'purge' }],
      [reviewing, { action: 'review', review_group_id: reviewers.id }],
    ] as const) {
      const res = await put(category.id, { ...rule, ...more });
      expect(res.statusCode, res.body).toBe(200);
    }
    // Kinds interleaved: a live file and one already in the trash for trash and purge.
    const files = [
      await fileIn(trashing.id, 'trash-1.txt', 2),
      await fileIn(purging.id, 'purge-1.txt', 2),
      await fileIn(reviewing.id, 'review-1.txt', 2),
      await fileIn(trashing.id, 'trash-2.txt', 2),
      await fileIn(purging.id, 'purge-2.txt', 2),
      await fileIn(trashing.id, 'trash-binned.txt', 2),
      await fileIn(purging.id, 'purge-binned.txt', 2),
      await fileIn(reviewing.id, 'review-2.txt', 2),
    ];
    await scan();
    const ids = (await pending()).items
      .filter((d: { file: { id: number } }) => files.some((f) => f.id === d.file.id))
      .map((d: { id: number }) => d.id);
    expect(ids).toHaveLength(files.length);
    const binnedAt = new Date(clock.getTime() - DAY);
    const binned = files.filter((f) => f.name.endsWith('-binned.txt')).map((f) => f.id);
    await t.db.file.updateMany({
      where: { id: { in: binned } },
      data: { deletedAt: binnedAt, deletedById: adminId },
    });
    const before = new Map(
      (await t.db.file.findMany({ where: { id: { in: files.map((f) => f.id) } } })).map((f) => [f.id, f]),
    );

    const mark = await written(t);
    const res = await call({
      method: 'POST',
      url: '/api/retention/dispositions/decide',
      payload: { ids: [...ids].reverse(), decision: 'approve' },
    });
    expect(res.statusCode, res.body).toBe(200);
    type Answered = {
      id: number;
      action: 'trash' | 'purge' | 'review';
      rule_id: number;
      rule_summary: string;
      status: string;
      file: { id: number; name: string };
    };
    const items = res.json().data.items as Answered[];
    expect(items.map((d) => d.id)).toEqual([...ids].sort((a, b) => a - b));
    // Listed in upload order, so the kinds come interleaved.
    expect(items.map((d) => d.file.name)).toEqual(files.map((f) => f.name));
    expect(items.map((d) => d.status)).toEqual(items.map(() => 'approved'));
    expect(new Set(items.map((d) => d.rule_summary)).size).toBe(3);

    // Each approval's event, then what carrying it out wrote: a live file moved to the trash
    // (its event and its jobs), a file purged (its event, no job); a review, or a trash of a
    // file already in the trash, writes nothing more.
    const approvedEvent = (d: Answered) => ({
      userId: adminId,
      type: 'retention',
      action: 'retention.disposition_approved',
      message: `Approved the disposition of "${d.file.name}" (${d.action}) under the rule "${d.rule_summary}"`,
      targetType: 'file',
      targetId: String(d.file.id),
      details: { disposition_id: d.id, rule_id: d.rule_id, rule_summary: d.rule_summary, action: d.action },
    });
    const carriedOut = (d: Answered) => {
      const file = before.get(d.file.id);
      if (!file) throw new Error(`no file ${d.file.id}`);
      if (d.action === 'trash' && !file.deletedAt)
        return [
          {
            userId: adminId,
            type: 'file',
            action: 'file.deleted',
            message: `Moved "${d.file.name}" to the trash`,
            targetType: 'file',
            targetId: String(d.file.id),
            details: {},
          },
        ];
      if (d.action === 'purge')
        return [
          {
            userId: adminId,
            type: 'file',
            action: 'file.purged',
            message: `Deleted "${d.file.name}" for good (retention: ${d.rule_summary})`,
            targetType: 'file',
            targetId: String(d.file.id),
            details: {
              name: d.file.name,
              folder_id: file.categoryId,
              incremental_value: file.incrementalValue,
              disposition_id: d.id,
              rule_id: d.rule_id,
            },
          },
        ];
      return [];
    };
    const trashedLive = items.filter((d) => d.action === 'trash' && !binned.includes(d.file.id));
    const { audit, jobs } = await writtenSince(t, mark);
    expect(audit).toEqual(items.flatMap((d) => [approvedEvent(d), ...carriedOut(d)]));
    expect(jobs).toEqual(
      trashedLive.flatMap((d) =>
        ['notification.file_event', 'workflow.file_event'].map((kind) => ({
          kind,
          payload: { type: 'deleted', file_id: d.file.id, category_id: trashing.id, actor_id: adminId },
        })),
      ),
    );

    // The files: live ones under a trash rule in the trash now, those already there kept as
    // they were, every one under a purge rule gone, those under review untouched.
    const after = new Map(
      (await t.db.file.findMany({ where: { id: { in: files.map((f) => f.id) } } })).map((f) => [f.id, f]),
    );
    for (const d of items) {
      const was = before.get(d.file.id);
      const now = after.get(d.file.id);
      if (d.action === 'purge') expect(now, d.file.name).toBeUndefined();
      else if (d.action === 'review' || binned.includes(d.file.id)) expect(now, d.file.name).toEqual(was);
      else
        expect(now, d.file.name).toEqual({
          ...was,
          deletedAt: clock,
          deletedById: adminId,
          updatedAt: expect.any(Date),
        });
    }
    expect(trashedLive).toHaveLength(2);
  });

  it('approving many is all or nothing: the first refused, in answer order, names its file', async () => {
    const {
      users: { holder },
      categories: { trashing, purging },
    } = await seed(t, {
      users: { holder: { signIn: false, firstName: 'Hal', lastName: 'Holder' } },
      categories: { trashing: {}, purging: {} },
    });
    for (const [category, action] of [
      [trashing, 'trash'],
      [purging, 'purge'],
    ] as const) {
      const res = await put(category.id, { keep_for: 1, unit: 'days', start_from: 'upload', action });
      expect(res.statusCode, res.body).toBe(200);
    }
    const files = [
      await fileIn(trashing.id, 'free.txt', 2),
      await fileIn(purging.id, 'held.txt', 2),
      await fileIn(trashing.id, 'locked.txt', 2),
    ];
    await scan();
    const ids = (await pending()).items
      .filter((d: { file: { id: number } }) => files.some((f) => f.id === d.file.id))
      .sort((x: { id: number }, y: { id: number }) => x.id - y.id)
      .map((d: { id: number }) => d.id);
    expect(ids).toHaveLength(3);
    const [held, locked] = [files[1], files[2]] as [(typeof files)[number], (typeof files)[number]];
    const hold = await call({
      method: 'POST',
      url: '/api/retention/holds',
      payload: { target: 'file', target_id: held.id, reason: 'Audit 7' },
    });
    expect(hold.statusCode, hold.body).toBe(200);
    await t.db.file.update({ where: { id: locked.id }, data: { lockedById: holder.id } });
    const before = await t.db.file.findMany({
      where: { id: { in: files.map((f) => f.id) } },
      orderBy: { id: 'asc' },
    });

    const mark = await written(t);
    const refused = await call({
      method: 'POST',
      url: '/api/retention/dispositions/decide',
      payload: { ids: [...ids].reverse(), decision: 'approve' },
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ code: 'retention.legal_hold' });
    expect(refused.json().message).toMatch(/^"held\.txt" is under legal hold: Audit 7/);
    // Without the held one, the locked one is refused, naming who holds it.
    const second = await call({
      method: 'POST',
      url: '/api/retention/dispositions/decide',
      payload: { ids: [ids[0], ids[2]], decision: 'approve' },
    });
    expect(second.statusCode).toBe(409);
    expect(second.json().message).toContain('Hal Holder');

    // Nothing was carried out nor decided.
    expect(
      (await writtenSince(t, mark)).audit.filter(
        (e) => e.type === 'file' || e.action.startsWith('retention.disposition'),
      ),
    ).toEqual([]);
    expect((await writtenSince(t, mark)).jobs).toEqual([]);
    expect(
      await t.db.file.findMany({ where: { id: { in: files.map((f) => f.id) } }, orderBy: { id: 'asc' } }),
    ).toEqual(before);
    expect(
      (await pending()).items
        .filter((d: { id: number }) => ids.includes(d.id))
        .map((d: { status: string }) => d.status),
    ).toEqual(['pending', 'pending', 'pending']);
  });
});

describe('who may', () => {
  it.each(FILE_CONTROL_CALLERS)('%s', async (...caller) => {
    const {
      categories: { category },
      files: { file },
    } = await seed(t, {
      categories: { category: {} },
      files: { file: { owner: { id: adminId }, category: 'category' } },
    });
    const hold = await t.db.legalHold.create({
      data: { target: 'file', fileId: file.id, targetName: 'x', reason: 'why', setById: adminId },
    });
    const cases = [
      readCaseOf('list rules', () => ({ method: 'GET', url: '/api/retention/rules' })),
      readCaseOf('category rule', () => ({
        method: 'GET',
        url: `/api/retention/categories/${category.id}/rule`,
      })),
      writeCase('set rule', () => ({
        method: 'PUT',
        url: `/api/retention/categories/${category.id}/rule`,
        payload: { keep_for: 1, unit: 'days', start_from: 'upload', action: 'trash' },
      })),
      readCaseOf('holds', () => ({ method: 'GET', url: '/api/retention/holds' })),
      writeCase('set hold', () => ({
        method: 'POST',
        url: '/api/retention/holds',
        payload: { target: 'file', target_id: file.id, reason: 'r' },
      })),
      readCaseOf('dispositions', () => ({ method: 'GET', url: '/api/retention/dispositions' })),
      writeCase('scan now', () => ({ method: 'POST', url: '/api/retention/dispositions/scan' })),
      writeCase('release hold', () => ({
        method: 'POST',
        url: `/api/retention/holds/${hold.id}/release`,
        payload: { reason: 'r' },
      })),
    ];
    await expectAccess(t, caller, cases, async () => [
      await t.db.retentionRule.count(),
      await t.db.legalHold.count({ where: { releasedAt: null } }),
    ]);
  });
});
