import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobDefinitions, jobSchedules } from '../src/jobs.js';
import { createTestApp, type TestContext } from './app.js';

// Every schedule of apps/api/src/jobs.ts, fired once through the app's own runner (its
// definitions, its schedules, its deps) and run to the end (issue 23, point 16: the hourly
// audit check failed every run because the schedule's payload, { due_at }, did not fit the
// audit.verify job). A schedule whose payload does not fit its job, or whose kind is not
// registered, fails here.

let t: TestContext;
let clock = new Date('2026-03-02T10:00:30Z');
beforeAll(async () => {
  t = await createTestApp({}, { now: () => clock });
  // The backup schedule is off until an admin turns it on: on, so it fires too.
  await t.db.backupSchedule.upsert({
    where: { id: 1 },
    create: { id: 1, enabled: true, cron: '0 2 * * *' },
    update: { enabled: true, cron: '0 2 * * *' },
  });
}, 60_000);
afterAll(() => t.close());

describe('the registered schedules', () => {
  it('each names a registered job kind', () => {
    const kinds = new Set(jobDefinitions.map((d) => d.kind));
    for (const s of jobSchedules) expect(kinds.has(s.kind), `${s.name}: ${s.kind}`).toBe(true);
  });

  it('each fires once a day has passed, and its job runs to the end (none fails)', async () => {
    // A schedule seen for the first time starts from its next due time.
    await t.app.jobs.tickSchedules();
    clock = new Date(clock.getTime() + 25 * 3_600_000);
    expect(await t.app.jobs.tickSchedules()).toBe(jobSchedules.length);
    const summary = await t.app.jobs.runDue();
    const jobs = await t.db.job.findMany({ select: { kind: true, status: true, lastError: true } });
    expect(jobs.filter((j) => j.status !== 'done')).toEqual([]);
    expect(summary.failed).toBe(0);
    const ran = new Set(jobs.map((j) => j.kind));
    for (const s of jobSchedules) expect(ran.has(s.kind), `${s.name} ran ${s.kind}`).toBe(true);
  }, 120_000);
});
