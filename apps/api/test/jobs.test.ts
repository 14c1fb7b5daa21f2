import { createDb } from '@quire/db';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { jobDefinitions, jobSchedules } from '../src/jobs.js';
import type { Tx } from '../src/lib/deps.js';
import { STOP_MESSAGE } from '../src/lib/jobs/attempt.js';
import { JOBS_CLEANUP_CRON, KEEP_DONE_MS, KEEP_FAILED_MS } from '../src/lib/jobs/cleanup.js';
import { BACKOFF_BASE_MS, defaultBackoffMs, defineJob, JobDeferred } from '../src/lib/jobs/definition.js';
import { LISTENER_APPLICATION_NAME } from '../src/lib/jobs/listener.js';
import { enqueue, enqueueMany, type JobPayloads } from '../src/lib/jobs/queue.js';
import { STALE_AFTER_MS } from '../src/lib/jobs/runner.js';
import { CronError, checkCron, nextDue, previousDue } from '../src/lib/jobs/schedules.js';
import { createTestApp, type TestContext } from './app.js';
import { bearer } from './factories.js';
import { testRunner } from './jobs.js';
import { person } from './seed.js';
import { until } from './until.js';

declare module '../src/lib/jobs/queue.js' {
  interface JobPayloads {
    'test.record': { n: number };
    'test.fail': { n: number };
    'test.held': { n: number };
  }
}

let t: TestContext;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());
beforeEach(async () => {
  await t.db.job.deleteMany();
  await t.db.jobSchedule.deleteMany();
});

/** A kind that records each run (job payload n and attempt) in `runs`. */
function recorder(kind: 'test.record' | 'test.held' = 'test.record', extra: { concurrency?: number } = {}) {
  const runs: Array<{ n: number; attempts: number }> = [];
  const definition = defineJob({
    kind,
    payload: z.object({ n: z.number() }),
    ...extra,
    async run(job) {
      runs.push({ n: job.payload.n, attempts: job.attempts });
    },
  });
  return { runs, definition };
}

const put = <K extends keyof JobPayloads & string>(
  kind: K,
  payload: JobPayloads[K],
  options?: Parameters<typeof enqueue>[3],
) => t.db.$transaction((tx) => enqueue(tx, kind, payload, options));

const jobRow = (id: bigint | null) => t.db.job.findUniqueOrThrow({ where: { id: id ?? -1n } });

describe('enqueue', () => {
  it('in a transaction that rolls back leaves no job, and no worker runs anything', async () => {
    const { runs, definition } = recorder();
    const runner = testRunner(t, [definition], { listen: true });
    await runner.start();
    try {
      await expect(
        t.db.$transaction(async (tx) => {
          await enqueue(tx, 'test.record', { n: 1 });
          throw new Error('the change failed');
        }),
      ).rejects.toThrow('the change failed');
      await new Promise((r) => setTimeout(r, 300));
      expect(await t.db.job.count()).toBe(0);
      expect((await runner.runDue()).done).toBe(0);
      expect(runs).toEqual([]);
    } finally {
      await runner.stop();
    }
  });

  it('drops a second job with the same key while the first waits or runs, and takes one after it is done', async () => {
    const first = await put('test.record', { n: 1 }, { key: 'only-one' });
    expect(first).not.toBeNull();
    expect(await put('test.record', { n: 2 }, { key: 'only-one' })).toBeNull();
    expect(await t.db.job.count()).toBe(1);
    const { runs, definition } = recorder();
    await testRunner(t, [definition]).runDue();
    expect(runs).toEqual([{ n: 1, attempts: 1 }]);
    expect(await put('test.record', { n: 3 }, { key: 'only-one' })).not.toBeNull();
  });

  it('waits for run_at', async () => {
    const soon = Date.now() + 60_000;
    const id = await put('test.record', { n: 1 }, { runAt: new Date(soon) });
    const { runs, definition } = recorder();
    expect((await testRunner(t, [definition]).runDue()).done).toBe(0);
    expect((await testRunner(t, [definition], { now: () => new Date(soon) }).runDue()).done).toBe(1);
    expect(runs).toHaveLength(1);
    expect(await jobRow(id)).toMatchObject({ status: 'done', attempts: 1 });
  });
});

describe('enqueueMany', () => {
  it("adds every job in the order given, in the caller's transaction, and a listening worker runs them all", async () => {
    const { runs, definition } = recorder();
    const held = recorder('test.held');
    const runner = testRunner(t, [definition, held.definition], { listen: true, pollMs: 60_000 });
    await runner.start();
    try {
      await new Promise((r) => setTimeout(r, 200)); // the start-up pass is over
      await expect(
        t.db.$transaction(async (tx) => {
          await enqueueMany(tx, [{ kind: 'test.record', payload: { n: 9 } }]);
          throw new Error('the change failed');
        }),
      ).rejects.toThrow('the change failed');
      expect(await t.db.job.count()).toBe(0);
      const ids = await t.db.$transaction((tx) =>
        enqueueMany(tx, [
          { kind: 'test.record', payload: { n: 1 } },
          { kind: 'test.held', payload: { n: 2 } },
          { kind: 'test.record', payload: { n: 3 } },
        ]),
      );
      expect(ids).toHaveLength(3);
      const rows = await t.db.job.findMany({ orderBy: { id: 'asc' } });
      expect(rows.map((r) => [r.id, r.kind, r.payload])).toEqual([
        [ids[0], 'test.record', { n: 1 }],
        [ids[1], 'test.held', { n: 2 }],
        [ids[2], 'test.record', { n: 3 }],
      ]);
      // Woken by the commit's notifications, not a poll (once a minute here).
      await until(() => runs.length === 2 && held.runs.length === 1, 5000, 'the three jobs to run');
      expect(runs.map((r) => r.n).sort()).toEqual([1, 3]);
      expect(await t.db.$transaction((tx) => enqueueMany(tx, []))).toEqual([]);
    } finally {
      await runner.stop();
    }
  });

  it("takes each job's own key and attempts: a key queued already, or twice in the call, is added once", async () => {
    const waiting = await put('test.record', { n: 0 }, { key: 'taken' });
    const ids = await t.db.$transaction((tx) =>
      enqueueMany(
        tx,
        [
          { kind: 'test.record', payload: { n: 1 }, key: 'taken' },
          { kind: 'test.record', payload: { n: 2 }, key: 'fresh', maxAttempts: 2 },
          { kind: 'test.record', payload: { n: 3 } },
          { kind: 'test.record', payload: { n: 4 }, key: 'fresh' },
        ],
        { maxAttempts: 7 },
      ),
    );
    const rows = await t.db.job.findMany({ orderBy: { id: 'asc' } });
    expect(rows.map((r) => [r.id, r.payload, r.key, r.maxAttempts])).toEqual([
      [waiting, { n: 0 }, 'taken', 5],
      [ids[0], { n: 2 }, 'fresh', 2],
      [ids[1], { n: 3 }, null, 7],
    ]);
    expect(ids).toHaveLength(2);
  });
});

describe('waking a worker', () => {
  it('a committed job wakes a listening worker at once, not at its next poll; after a lost connection too', async () => {
    const { runs, definition } = recorder();
    // Polls once a minute: only the notification can wake it within the test's time.
    const runner = testRunner(t, [definition], { listen: true, pollMs: 60_000 });
    await runner.start();
    try {
      expect(runner.listening).toBe(true);
      await new Promise((r) => setTimeout(r, 200)); // the start-up pass is over
      await put('test.record', { n: 1 });
      await until(() => runs.length === 1, 5000, 'the job to run');

      // The database drops the LISTEN connection: the worker reconnects and hears again.
      await t.db.$executeRaw`
        SELECT pg_terminate_backend(pid) FROM pg_stat_activity
        WHERE application_name = ${LISTENER_APPLICATION_NAME} AND datname = current_database()`;
      await until(() => !runner.listening, 5000, 'the connection to drop');
      await until(() => runner.listening, 10_000, 'the worker to reconnect');
      await put('test.record', { n: 2 });
      await until(() => runs.length === 2, 5000, 'the second job to run');
    } finally {
      await runner.stop();
    }
    expect(runs.map((r) => r.n)).toEqual([1, 2]);
  });
});

describe('several workers on one database', () => {
  it('never run a job twice (300 jobs, two workers, four at a time each)', async () => {
    const total = 300;
    await t.db.job.createMany({
      data: Array.from({ length: total }, (_, n) => ({ kind: 'test.record', payload: { n } })),
    });
    const counts = new Map<number, number>();
    const definition = defineJob({
      kind: 'test.record',
      payload: z.object({ n: z.number() }),
      concurrency: 4,
      async run(job) {
        counts.set(job.payload.n, (counts.get(job.payload.n) ?? 0) + 1);
        await new Promise((r) => setTimeout(r, Math.random() * 4));
      },
    });
    const dbA = createDb(t.databaseUrl, { poolSize: 4 });
    const dbB = createDb(t.databaseUrl, { poolSize: 4 });
    try {
      const [a, b] = await Promise.all([
        testRunner(t, [definition], { db: dbA }).runDue(),
        testRunner(t, [definition], { db: dbB }).runDue(),
      ]);
      expect(a.done + b.done).toBe(total);
      expect(a.done).toBeGreaterThan(0);
      expect(b.done).toBeGreaterThan(0);
    } finally {
      await dbA.$disconnect();
      await dbB.$disconnect();
    }
    const twice = [...counts].filter(([, c]) => c !== 1);
    expect(twice).toEqual([]);
    expect(counts.size).toBe(total);
    expect(await t.db.job.count({ where: { status: 'done', attempts: 1 } })).toBe(total);
  });
});

describe('failures', () => {
  const failing = (options: { backoffMs?: (n: number) => number } = {}) => {
    const runs: number[] = [];
    const definition = defineJob({
      kind: 'test.fail',
      payload: z.object({ n: z.number() }),
      ...options,
      async run(job) {
        runs.push(job.attempts);
        throw new Error(`refused on attempt ${job.attempts}`);
      },
    });
    return { runs, definition };
  };

  it('retries with back-off (30 s, then doubling), then fails for good at max attempts', async () => {
    const id = await put('test.fail', { n: 1 }, { maxAttempts: 3 });
    const { runs, definition } = failing();
    let clock = Date.now() + 1000;
    const run = () => testRunner(t, [definition], { now: () => new Date(clock) }).runDue();

    expect((await run()).retried).toBe(1);
    let row = await jobRow(id);
    expect(row).toMatchObject({
      status: 'queued',
      attempts: 1,
      lastError: 'refused on attempt 1',
      lockedBy: null,
    });
    expect(row.runAt.getTime()).toBe(clock + BACKOFF_BASE_MS);

    clock += BACKOFF_BASE_MS - 1;
    expect((await run()).retried).toBe(0);
    clock += 1;
    expect((await run()).retried).toBe(1);
    row = await jobRow(id);
    expect(row).toMatchObject({ status: 'queued', attempts: 2 });
    expect(row.runAt.getTime()).toBe(clock + 2 * BACKOFF_BASE_MS);

    clock += 2 * BACKOFF_BASE_MS;
    expect((await run()).failed).toBe(1);
    row = await jobRow(id);
    expect(row).toMatchObject({ status: 'failed', attempts: 3, lastError: 'refused on attempt 3' });
    expect(row.finishedAt?.getTime()).toBe(clock);

    clock += 24 * 3_600_000;
    await run();
    expect(runs).toEqual([1, 2, 3]);
  });

  it('backs off 30 s after the first failure, doubling each time, at most an hour', () => {
    const s = 1000;
    expect([1, 2, 3, 4, 7, 8, 20].map(defaultBackoffMs)).toEqual([
      30 * s,
      60 * s,
      120 * s,
      240 * s,
      1920 * s,
      3600 * s,
      3600 * s,
    ]);
  });

  it("uses the kind's own back-off", async () => {
    const id = await put('test.fail', { n: 1 });
    const clock = Date.now() + 1000;
    await testRunner(t, [failing({ backoffMs: (n) => n * 1234 }).definition], {
      now: () => new Date(clock),
    }).runDue();
    expect((await jobRow(id)).runAt.getTime()).toBe(clock + 1234);
  });

  it('a deferred job waits without spending an attempt', async () => {
    const id = await put('test.record', { n: 1 }, { maxAttempts: 1 });
    const definition = defineJob({
      kind: 'test.record',
      payload: z.object({ n: z.number() }),
      async run() {
        throw new JobDeferred('Not yet: the settings are missing', 5000);
      },
    });
    const clock = Date.now() + 1000;
    for (const at of [clock, clock + 5000, clock + 10_000]) {
      expect((await testRunner(t, [definition], { now: () => new Date(at) }).runDue()).deferred).toBe(1);
    }
    const row = await jobRow(id);
    expect(row).toMatchObject({
      status: 'queued',
      attempts: 0,
      lastError: 'Not yet: the settings are missing',
    });
    expect(row.runAt.getTime()).toBe(clock + 15_000);
  });

  it('an attempt that runs past its time is ended and counted as failed', async () => {
    const id = await put('test.held', { n: 1 }, { maxAttempts: 2 });
    const definition = defineJob({
      kind: 'test.held',
      payload: z.object({ n: z.number() }),
      timeoutMs: 100,
      run: () => new Promise(() => {}),
    });
    expect((await testRunner(t, [definition]).runDue()).retried).toBe(1);
    expect(await jobRow(id)).toMatchObject({
      status: 'queued',
      attempts: 1,
      lastError: 'Timed out after 0 s',
    });
  });

  it('a payload that does not fit its kind fails at once, without retries', async () => {
    const [job] = await t.db.job.createManyAndReturn({
      data: [{ kind: 'test.record', payload: { n: 'one' } }],
    });
    const { runs, definition } = recorder();
    expect((await testRunner(t, [definition]).runDue()).failed).toBe(1);
    expect(runs).toEqual([]);
    const row = await jobRow(job!.id);
    expect(row.status).toBe('failed');
    expect(row.lastError).toContain('does not fit a test.record job');
  });
});

describe('concurrency', () => {
  it('runs at most `concurrency` jobs of a kind at once in one worker', async () => {
    for (let n = 0; n < 8; n++) await put('test.held', { n });
    let running = 0;
    let most = 0;
    const definition = defineJob({
      kind: 'test.held',
      payload: z.object({ n: z.number() }),
      concurrency: 3,
      async run() {
        running += 1;
        most = Math.max(most, running);
        await new Promise((r) => setTimeout(r, 30));
        running -= 1;
      },
    });
    expect((await testRunner(t, [definition]).runDue()).done).toBe(8);
    expect(most).toBe(3);
  });
});

describe('workers that stop', () => {
  it('a job whose worker keeps beating is never taken back, however long it runs', async () => {
    let clock = Date.now() + 1000;
    const now = () => new Date(clock);
    let release: () => void = () => {};
    const held = new Promise<void>((r) => {
      release = r;
    });
    const definition = defineJob({
      kind: 'test.held',
      payload: z.object({ n: z.number() }),
      run: () => held,
    });
    const id = await put('test.held', { n: 1 });
    const worker = testRunner(t, [definition], { now, heartbeatMs: 20 });
    const running = worker.runDue();
    await until(async () => (await jobRow(id)).status === 'running', 5000, 'the job to start');
    // Far past the stale limit on the shared clock, but the worker beats meanwhile.
    clock += 10 * STALE_AFTER_MS;
    await new Promise((r) => setTimeout(r, 100));
    expect(await testRunner(t, [definition], { now }).recoverStale()).toBe(0);
    release();
    expect((await running).done).toBe(1);
    expect(await jobRow(id)).toMatchObject({ status: 'done', attempts: 1 });
  });

  it('a stopping worker hands its unfinished jobs back, without spending their attempt', async () => {
    const id = await put('test.held', { n: 1 });
    const definition = defineJob({
      kind: 'test.held',
      payload: z.object({ n: z.number() }),
      run: () => new Promise(() => {}),
    });
    const worker = testRunner(t, [definition], { listen: true, stopGraceMs: 50 });
    await worker.start();
    await until(async () => (await jobRow(id)).status === 'running', 5000, 'the job to start');
    await worker.stop();
    expect(await jobRow(id)).toMatchObject({
      status: 'queued',
      attempts: 0,
      lastError: STOP_MESSAGE,
      lockedBy: null,
    });
  });
});

describe('schedules', () => {
  const minute = 60_000;
  /** A time in the future, `s` seconds past a whole minute. */
  const future = (s: number) => Math.ceil((Date.now() + 3_600_000) / minute) * minute + s * 1000;

  it('parses cron expressions (five fields, or six with seconds) and finds due times', () => {
    const at = new Date('2026-05-01T12:00:00.000Z');
    expect(previousDue('0 * * * *', at, 'UTC').toISOString()).toBe('2026-05-01T12:00:00.000Z');
    expect(nextDue('0 * * * *', at, 'UTC').toISOString()).toBe('2026-05-01T13:00:00.000Z');
    expect(nextDue('*/10 * * * * *', at, 'UTC').toISOString()).toBe('2026-05-01T12:00:10.000Z');
    expect(nextDue('0 2 * * *', at, 'Europe/Berlin').toISOString()).toBe('2026-05-02T00:00:00.000Z');
    expect(() => checkCron('61 * * * *')).toThrow(CronError);
    expect(() => checkCron('every day')).toThrow(/Not a valid cron expression/);
  });

  it('two workers with the same schedule fire it once per due time', async () => {
    const { runs, definition } = recorder();
    const fired: string[] = [];
    const schedule = {
      name: 'test.every-minute',
      kind: 'test.record' as const,
      cron: '* * * * *',
      payload: (due: Date) => {
        fired.push(due.toISOString());
        return { n: due.getTime() };
      },
    };
    let clock = future(10);
    const now = () => new Date(clock);
    const dbA = createDb(t.databaseUrl, { poolSize: 3 });
    const dbB = createDb(t.databaseUrl, { poolSize: 3 });
    try {
      const a = testRunner(t, [definition], { db: dbA, now, schedules: [schedule] });
      const b = testRunner(t, [definition], { db: dbB, now, schedules: [schedule] });
      // First sight: the schedule starts from its next due time.
      expect((await Promise.all([a.tickSchedules(), b.tickSchedules()])).reduce((x, y) => x + y)).toBe(0);
      for (let i = 1; i <= 5; i++) {
        clock += minute;
        // Both look at once; then the job runs; then the slower one looks again a bit later.
        expect((await Promise.all([a.tickSchedules(), b.tickSchedules()])).reduce((x, y) => x + y)).toBe(1);
        await a.runDue();
        clock += 5000;
        expect(await b.tickSchedules()).toBe(0);
        expect(await a.tickSchedules()).toBe(0);
        clock -= 5000;
      }
    } finally {
      await dbA.$disconnect();
      await dbB.$disconnect();
    }
    expect(runs).toHaveLength(5);
    expect(new Set(fired).size).toBe(5);
    expect(runs.map((r) => r.n)).toEqual(fired.map((f) => new Date(f).getTime()));
  });

  it('runs a missed due time once when a worker is back, not once per missed time', async () => {
    const { runs, definition } = recorder();
    const schedule = {
      name: 'test.hourly',
      kind: 'test.record' as const,
      cron: '0 * * * *',
      payload: () => ({ n: 0 }),
    };
    let clock = future(0) + 30 * minute;
    const runner = () => testRunner(t, [definition], { now: () => new Date(clock), schedules: [schedule] });
    await runner().tickSchedules();
    clock += 5 * 60 * minute; // down for five hours
    expect(await runner().tickSchedules()).toBe(1);
    expect(await runner().tickSchedules()).toBe(0);
    await runner().runDue();
    expect(runs).toHaveLength(1);
  });

  it('follows an expression stored in the database: a change starts from its next due time, null switches it off', async () => {
    await t.db.$executeRawUnsafe('CREATE TABLE IF NOT EXISTS test_schedule (cron text)');
    await t.db.$executeRawUnsafe('DELETE FROM test_schedule');
    await t.db.$executeRawUnsafe(`INSERT INTO test_schedule VALUES ('0 * * * *')`);
    const schedule = {
      name: 'test.stored',
      kind: 'test.record' as const,
      payload: () => ({ n: 0 }),
      cron: async (db: Tx) =>
        (await db.$queryRawUnsafe<Array<{ cron: string | null }>>('SELECT cron FROM test_schedule'))[0]
          ?.cron ?? null,
    };
    const setCron = (cron: string | null) => t.db.$executeRaw`UPDATE test_schedule SET cron = ${cron}`;
    let clock = future(0) + 30 * minute;
    const { runs, definition } = recorder();
    const tick = async () => {
      const runner = testRunner(t, [definition], { now: () => new Date(clock), schedules: [schedule] });
      const fired = await runner.tickSchedules();
      await runner.runDue();
      return fired;
    };

    expect(await tick()).toBe(0);
    clock += 60 * minute;
    expect(await tick()).toBe(1);
    // Changed to every minute: nothing fires for the past; the next minute does.
    await setCron('* * * * *');
    expect(await tick()).toBe(0);
    clock += minute;
    expect(await tick()).toBe(1);
    // Off: nothing fires, however long.
    await setCron(null);
    clock += 60 * minute;
    expect(await tick()).toBe(0);
    expect(await tick()).toBe(0);
    // On again: from the next due time, not the missed ones.
    await setCron('* * * * *');
    expect(await tick()).toBe(0);
    clock += minute;
    expect(await tick()).toBe(1);
    expect(runs).toHaveLength(3);
  });

  it('the registered schedules run the blob collector, the job clean-up, the audit chain check, the workflow clock and the retention scan (backups only when scheduled, the intake poll only while a source is enabled)', async () => {
    expect(jobSchedules.map((s) => s.kind).sort()).toEqual([
      'audit.verify',
      'backup.run',
      'blobs.collect',
      'intake.poll',
      'jobs.cleanup',
      'retention.scan',
      'workflow.clock',
    ]);
    expect(jobDefinitions.map((d) => d.kind).sort()).toEqual([
      'audit.verify',
      'backup.restore',
      'backup.run',
      'blobs.collect',
      'intake.file',
      'intake.poll',
      'jobs.cleanup',
      'mail.send',
      'notification.file_event',
      'preview.derive',
      'retention.scan',
      'search.extract',
      'search.recognize',
      'search.reindex',
      'workflow.clock',
      'workflow.file_event',
      'workflow.notify',
    ]);
    // From two hours before the daily clean-up to the clean-up (whatever the time of day the
    // test runs at): the hourly collector and chain check, and the workflow clock that runs
    // every minute, all fall due in that window too; the retention scan (01:17) does not.
    const cleanupAt = nextDue(JOBS_CLEANUP_CRON, new Date(future(0) + 2 * 3_600_000)).getTime();
    let clock = cleanupAt - 2 * 3_600_000;
    const runner = () =>
      testRunner(t, jobDefinitions, { now: () => new Date(clock), schedules: jobSchedules });
    await runner().tickSchedules();
    clock = cleanupAt;
    expect(await runner().tickSchedules()).toBe(4);
    expect((await t.db.job.findMany({ orderBy: { kind: 'asc' } })).map((j) => j.kind)).toEqual([
      'audit.verify',
      'blobs.collect',
      'jobs.cleanup',
      'workflow.clock',
    ]);
  });
});

describe('clean-up of finished jobs', () => {
  it('deletes done jobs after 7 days and failed ones after 30, and keeps the rest', async () => {
    const now = Date.now();
    const day = 24 * 3_600_000;
    const at = (ms: number) => new Date(now - ms);
    await t.db.job.createMany({
      data: [
        { kind: 'test.record', status: 'done', finishedAt: at(KEEP_DONE_MS + day), key: 'old done' },
        { kind: 'test.record', status: 'done', finishedAt: at(KEEP_DONE_MS - day), key: 'recent done' },
        {
          kind: 'test.record',
          status: 'failed',
          finishedAt: at(KEEP_DONE_MS + day),
          key: 'failed 8 days ago',
        },
        { kind: 'test.record', status: 'failed', finishedAt: at(KEEP_FAILED_MS + day), key: 'old failed' },
        {
          kind: 'test.record',
          status: 'queued',
          createdAt: at(KEEP_FAILED_MS + day),
          runAt: at(-day),
          key: 'waiting',
        },
      ],
    });
    await t.db.$transaction((tx) => enqueue(tx, 'jobs.cleanup', {}));
    expect((await testRunner(t, jobDefinitions).runDue()).done).toBe(1);
    const left = await t.db.job.findMany({ where: { kind: 'test.record' }, orderBy: { key: 'asc' } });
    expect(left.map((j) => j.key)).toEqual(['failed 8 days ago', 'recent done', 'waiting']);
  });
});

describe('process roles (QUIRE_ROLE)', () => {
  it('worker: runs jobs and answers only /api/health', async () => {
    const worker = await createTestApp({ QUIRE_ROLE: 'worker' });
    try {
      expect(worker.app.jobs.listening).toBe(true);
      expect((await worker.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
      const user = await worker.app.inject({ method: 'POST', url: '/api/login', payload: {} });
      expect(user.statusCode).toBe(404);
      expect((await worker.app.inject({ method: 'GET', url: '/api/openapi.json' })).statusCode).toBe(404);
    } finally {
      await worker.close();
    }
  });

  it('api: answers calls and runs no job; all: both', async () => {
    const api = await createTestApp({ QUIRE_ROLE: 'api' });
    const all = await createTestApp({ QUIRE_ROLE: 'all' });
    try {
      expect(api.app.jobs.listening).toBe(false);
      expect(all.app.jobs.listening).toBe(true);
      for (const ctx of [api, all]) {
        const admin = (await person(ctx, { accessType: 'COMPANY ADMIN' })).token;
        const res = await ctx.app.inject({
          method: 'GET',
          url: '/api/check-session',
          headers: bearer(admin),
        });
        expect(res.statusCode).toBe(200);
        await ctx.db.$transaction((tx) => enqueue(tx, 'jobs.cleanup', {}));
      }
      await until(
        async () => (await all.db.job.count({ where: { status: 'done' } })) === 1,
        5000,
        'the job to run',
      );
      await new Promise((r) => setTimeout(r, 300));
      expect(await api.db.job.findFirstOrThrow()).toMatchObject({ status: 'queued', attempts: 0 });
    } finally {
      await api.close();
      await all.close();
    }
  });
});
