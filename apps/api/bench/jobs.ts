// pnpm bench:jobs [-- --jobs=5000 --concurrency=10 --work-ms=2 --latency=50 --ticks=2]
//
// Our job runner (decision 010, lib/jobs) against pg-boss and graphile-worker on the same work,
// on one throw-away embedded PostgreSQL: ours in the database's `public` schema (Quire's own
// migrations), pg-boss in `pgboss`, graphile-worker in `graphile_worker`. Every scenario runs
// two instances of the runner, each with a pool of its own, as two servers would, and counts the
// handler's runs per job (so a job run twice, or never, shows):
//
//   throughput  `--jobs` no-op jobs added in one commit while the workers idle, then drained;
//               again with a handler that waits `--work-ms` (I/O, say). jobs/s from the commit
//               to the last handler's end; duplicates and losses; each instance's share.
//   latency     `--latency` jobs one at a time, idle workers: enqueue (call to commit) to the
//               handler's start, p50/p95. Ours and graphile-worker LISTEN; pg-boss too
//               (useListenNotify, notify queues).
//   schedules   `* * * * *` registered on both instances of each runner, `--ticks` minute
//               boundaries on the wall clock (pg-boss and graphile-worker fire by the minute;
//               graphile-worker has no clock to drive, and pg-boss's TestClock would drive its
//               workers' timers too), runs per tick; ours also `* * * * * *` (by the second).
//   retries     a job that fails twice then succeeds: runs and the delay from the first run to
//               the third, with each runner's back-off (ours 1 s doubling; pg-boss retryDelay 1,
//               retryBackoff; graphile-worker's fixed exp(attempts) s).
//
// Each runner is configured for `--concurrency` jobs in flight per instance: ours `concurrency`,
// graphile-worker `concurrency`, pg-boss one worker fetching batches of that size with
// `burstWhenBatchFull` (its documented way to drain a backlog; one job a fetch would wait out the
// polling interval after every job). Everything else is each library's default.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { createDatabase, migrate, startEmbeddedPostgres, withDatabase } from '@quire/db';
import { type Contender, graphileWorker, ours, pgBoss } from './job-runners.js';
import { median, percentile } from './stats.js';

const arg = (name: string, fallback: number) => {
  const found = process.argv.find((a) => a.startsWith(`--${name}=`));
  return found ? Number(found.slice(name.length + 3)) : fallback;
};
const JOBS = arg('jobs', 5000);
const CONCURRENCY = arg('concurrency', 10);
const WORK_MS = arg('work-ms', 2);
const LATENCY_SAMPLES = arg('latency', 50);
const TICKS = Math.max(1, arg('ticks', 2));

// ---- the scenarios ----------------------------------------------------------------------------

/** Waits for `check`; answers false (and says so) after `timeoutMs`. */
async function until(check: () => boolean, timeoutMs: number, what: string) {
  const deadline = performance.now() + timeoutMs;
  while (!check()) {
    if (performance.now() > deadline) {
      console.error(`timed out after ${timeoutMs} ms: ${what}`);
      return false;
    }
    await sleep(2);
  }
  return true;
}

interface Throughput {
  enqueueS: number;
  drainS: number;
  jobsPerS: number;
  duplicates: number;
  lost: number;
  split: [number, number];
}

async function throughput(c: Contender, queue: string, workMs: number): Promise<Throughput> {
  const runs = new Map<number, number>();
  const split: [number, number] = [0, 0];
  let distinct = 0;
  const started = await c.start({
    [queue]: async ({ n }, instance) => {
      if (workMs > 0) await sleep(workMs);
      const seen = runs.get(n) ?? 0;
      runs.set(n, seen + 1);
      if (seen === 0) distinct += 1;
      split[instance === 0 ? 0 : 1] += 1;
    },
  });
  try {
    const payloads = Array.from({ length: JOBS }, (_, n) => ({ n }));
    const t0 = performance.now();
    await c.add(queue, payloads);
    const t1 = performance.now();
    // A job no instance runs within 2 minutes of the last one counts as lost.
    let last = distinct;
    let lastAt = performance.now();
    await until(
      () => {
        if (distinct !== last) [last, lastAt] = [distinct, performance.now()];
        return distinct >= JOBS || performance.now() - lastAt > 120_000;
      },
      900_000,
      `${c.name}: ${JOBS} jobs of ${queue}`,
    );
    const t2 = performance.now();
    await sleep(1000); // room for a second run of any job to show
    let duplicates = 0;
    for (const count of runs.values()) duplicates += count - 1;
    return {
      enqueueS: (t1 - t0) / 1000,
      drainS: (t2 - t1) / 1000,
      jobsPerS: JOBS / ((t2 - t1) / 1000),
      duplicates,
      lost: JOBS - distinct,
      split,
    };
  } finally {
    await started.stop();
  }
}

async function latency(c: Contender): Promise<{ p50: number; p95: number }> {
  const startedAt = new Map<number, number>();
  const started = await c.start({
    bench_latency: async ({ n }) => {
      startedAt.set(n, performance.now());
    },
  });
  try {
    await sleep(500); // idle, listening
    const samples: number[] = [];
    for (let n = 0; n < LATENCY_SAMPLES; n++) {
      const t0 = performance.now();
      await c.add('bench_latency', [{ n }]);
      if (!(await until(() => startedAt.has(n), 120_000, `${c.name}: latency job ${n}`))) break;
      samples.push((startedAt.get(n) ?? 0) - t0);
      await sleep(100); // the workers go idle again
    }
    return { p50: median(samples), p95: percentile(samples, 0.95) };
  } finally {
    await started.stop();
  }
}

interface Timed {
  /** Runs per minute tick of `* * * * *`, for the ticks inside the window. */
  minuteRuns: number[];
  /** Ours only: runs per second tick of `* * * * * *`. */
  secondRuns?: number[];
  secondsInWindow?: number;
  retryRuns: number;
  retryDelayS: number;
  retryGapsS: number[];
}

/** The schedules and the retry, together (both wait on the wall clock). */
async function timed(c: Contender, windowEndsAt: number): Promise<Timed> {
  const minuteRuns = new Map<number, number>();
  const secondRuns = new Map<string, number>();
  const retryStarts: number[] = [];
  const cron = [{ queue: 'bench_cron', expression: '* * * * *' }];
  if (c.name === 'ours') cron.push({ queue: 'bench_cron_s', expression: '* * * * * *' });
  const windowStart = Date.now();
  const started = await c.start(
    {
      bench_cron: async () => {
        // Runs start within seconds of their minute: bucketed by the minute they start in.
        const minute = Math.floor(Date.now() / 60_000);
        minuteRuns.set(minute, (minuteRuns.get(minute) ?? 0) + 1);
      },
      bench_cron_s: async (payload) => {
        const due = String((payload as unknown as { due_at: string }).due_at);
        secondRuns.set(due, (secondRuns.get(due) ?? 0) + 1);
      },
      bench_retry: async () => {
        retryStarts.push(performance.now());
        if (retryStarts.length <= 2) throw new Error(`bench: failing run ${retryStarts.length} on purpose`);
      },
    },
    { cron },
  );
  try {
    await c.add('bench_retry', [{ n: 0 }], { maxAttempts: 3 });
    await sleep(Math.max(0, windowEndsAt - Date.now()));
    await until(() => retryStarts.length >= 3, 180_000, `${c.name}: the retried job's third run`);
    await sleep(2000); // a fourth run would show
  } finally {
    await started.stop();
  }
  // The minute ticks fully inside the window (from the first boundary after the start).
  const firstTick = Math.ceil(windowStart / 60_000);
  const ticks = Array.from({ length: TICKS }, (_, i) => firstTick + i);
  const firstSecond = Math.ceil(windowStart / 1000) + 2; // ours looks at a new schedule from its next due time
  const lastSecond = Math.floor(windowEndsAt / 1000) - 5;
  const seconds = Array.from({ length: lastSecond - firstSecond }, (_, i) =>
    new Date((firstSecond + i) * 1000).toISOString(),
  );
  return {
    minuteRuns: ticks.map((t) => minuteRuns.get(t) ?? 0),
    ...(c.name === 'ours'
      ? { secondRuns: seconds.map((s) => secondRuns.get(s) ?? 0), secondsInWindow: seconds.length }
      : {}),
    retryRuns: retryStarts.length,
    retryDelayS: ((retryStarts[2] ?? Number.NaN) - (retryStarts[0] ?? Number.NaN)) / 1000,
    retryGapsS: retryStarts.slice(1).map((t, i) => (t - (retryStarts[i] ?? t)) / 1000),
  };
}

// ---- main -------------------------------------------------------------------------------------

const dir = await mkdtemp(path.join(os.tmpdir(), 'quire-bench-jobs-'));
const pg = await startEmbeddedPostgres({ dataDir: path.join(dir, 'pg') });
const contenders: Contender[] = [];
try {
  await createDatabase(pg.adminUrl, 'bench_jobs');
  const url = withDatabase(pg.adminUrl, 'bench_jobs');
  await migrate(url);
  contenders.push(
    ours(url, CONCURRENCY),
    await pgBoss(url, CONCURRENCY),
    await graphileWorker(url, CONCURRENCY),
  );
  const load = () => os.loadavg()[0]?.toFixed(1);
  console.info(
    `\npnpm bench:jobs -- --jobs=${JOBS} --concurrency=${CONCURRENCY} --work-ms=${WORK_MS} ` +
      `--latency=${LATENCY_SAMPLES} --ticks=${TICKS}`,
  );
  console.info(
    `Job runners: ${os.cpus().length} cores (${os.cpus()[0]?.model ?? '?'}), load ${load()}, ` +
      `${new Date().toISOString()}; two instances each, ${CONCURRENCY} jobs in flight per instance\n`,
  );

  const results = new Map<
    string,
    { noop: Throughput; work: Throughput; lat: { p50: number; p95: number } }
  >();
  for (const c of contenders) {
    console.info(`${c.name}: throughput and latency…`);
    const noop = await throughput(c, 'bench_noop', 0);
    const work = await throughput(c, 'bench_work', WORK_MS);
    const lat = await latency(c);
    results.set(c.name, { noop, work, lat });
  }

  // Schedules and retries: all three at once, over the same minute boundaries.
  const windowEndsAt = (Math.ceil(Date.now() / 60_000) + TICKS - 1) * 60_000 + 15_000;
  console.info(
    `schedules and retries: until ${new Date(windowEndsAt).toISOString()} (${TICKS} minute ticks)…`,
  );
  const timedResults = await Promise.all(contenders.map((c) => timed(c, windowEndsAt)));
  console.info(`load now ${load()}\n`);

  const base = results.get('ours');
  const ratio = (x: number, b: number | undefined) => (b ? `x${(x / b).toFixed(2)}` : '');
  const row = (cells: Array<string | number>) => `| ${cells.map(String).join(' | ')} |`;
  console.info(`Throughput: ${JOBS} jobs added in one commit, drained by two instances (ratio: of ours)\n`);
  console.info(
    row([
      'runner',
      'enqueue s',
      'no-op jobs/s',
      'ratio',
      `${WORK_MS} ms jobs/s`,
      'ratio',
      'duplicates',
      'lost',
      'split no-op',
      `split ${WORK_MS} ms`,
    ]),
  );
  console.info(row(Array(10).fill('---')));
  for (const [name, r] of results)
    console.info(
      row([
        name,
        r.noop.enqueueS.toFixed(2),
        r.noop.jobsPerS.toFixed(0),
        ratio(r.noop.jobsPerS, base?.noop.jobsPerS),
        r.work.jobsPerS.toFixed(0),
        ratio(r.work.jobsPerS, base?.work.jobsPerS),
        r.noop.duplicates + r.work.duplicates,
        r.noop.lost + r.work.lost,
        r.noop.split.join('/'),
        r.work.split.join('/'),
      ]),
    );
  console.info(`\nLatency: enqueue to handler start, ${LATENCY_SAMPLES} jobs one at a time, idle workers\n`);
  console.info(row(['runner', 'p50 ms', 'p95 ms', 'p95 ratio']));
  console.info(row(Array(4).fill('---')));
  for (const [name, r] of results)
    console.info(row([name, r.lat.p50.toFixed(1), r.lat.p95.toFixed(1), ratio(r.lat.p95, base?.lat.p95)]));
  console.info('\nSchedules (on both instances) and a job failing twice, then succeeding\n');
  console.info(
    row(['runner', '`* * * * *` runs per tick', 'by the second', 'retry runs', 'first to third s', 'gaps s']),
  );
  console.info(row(Array(6).fill('---')));
  contenders.forEach((c, i) => {
    const t = timedResults[i];
    if (!t) return;
    const perSecond = t.secondRuns
      ? `${t.secondRuns.filter((x) => x === 1).length} of ${t.secondsInWindow} once, ` +
        `${t.secondRuns.filter((x) => x > 1).length} twice+, ${t.secondRuns.filter((x) => x === 0).length} missed`
      : 'n/a (by the minute)';
    console.info(
      row([
        c.name,
        t.minuteRuns.join(', '),
        perSecond,
        t.retryRuns,
        t.retryDelayS.toFixed(2),
        t.retryGapsS.map((g) => g.toFixed(2)).join(', '),
      ]),
    );
  });
} finally {
  for (const c of contenders) await c.close().catch((err) => console.error(err));
  await pg.stop();
  await rm(dir, { recursive: true, force: true });
}
