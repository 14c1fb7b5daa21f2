import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { databaseUrlOf } from '@quire/db';
import type { Deps } from '../deps.js';
import { execute, failure, newSummary, type RunSummary, settle } from './attempt.js';
import type { JobDefinition } from './definition.js';
import { listenForNotifications, type NotificationListener } from './listener.js';
import { JOBS_CHANNEL, SCHEDULES_CHANGED } from './queue.js';
import * as repo from './repository.js';
import { fireDueSchedules, type ScheduleDefinition } from './schedules.js';

// The worker: runs the jobs of the kinds it is given, as many of each at once as the kind
// allows, and fires the recurring schedules.
// Claiming, heart-beating and waking share the runner's slots and timers, which one closure
// keeps consistent; one attempt at a claimed job (run, time limit, outcome) is attempt.ts.
//
//   queued --claim (SKIP LOCKED, attempt counted)--> running --ok--> done
//                                                       |--error--> queued at now + back-off, or failed at max attempts
//                                                       |--JobDeferred--> queued at now + delay, attempt not counted
//   running, no heartbeat for STALE_AFTER_MS (its worker died) --> queued at now + back-off, or failed
//
// It wakes when a NOTIFY says a job of one of its kinds was committed, when a job it knows of
// falls due, when one of its own jobs ends (a slot is free), and at least every `pollMs` (the
// fallback should a notification be lost while the LISTEN connection was down).
// Every update of a running job is conditional on its claim (worker and attempt), so an
// attempt that was taken back (timed out, or its worker presumed dead) changes nothing later.

const HEARTBEAT_MS = 15_000;
export const STALE_AFTER_MS = 3 * 60_000;
export const STALE_MESSAGE = 'The worker running this job stopped (crash or restart); retrying';
const RECOVER_EVERY_MS = 30_000;
const STOP_GRACE_MS = 10_000;
const RECOVER_BATCH = 100;

export interface JobRunnerOptions {
  definitions: JobDefinition[];
  schedules?: ScheduleDefinition[];
  /** Longest time between two looks at the queue and the schedules. */
  pollMs: number;
  /** LISTEN for wake-ups (default true). */
  listen?: boolean;
  heartbeatMs?: number;
  staleAfterMs?: number;
  recoverEveryMs?: number;
  stopGraceMs?: number;
}

export interface JobRunner {
  /** This worker's name in `jobs.locked_by`: host, process id and a random part. */
  readonly workerId: string;
  /** True while the LISTEN connection is up. */
  readonly listening: boolean;
  /** Starts working in the background; resolves once the LISTEN connection was tried. */
  start(): Promise<void>;
  /** Stops taking jobs, lets running ones finish (up to a grace time), hands back the rest. */
  stop(): Promise<void>;
  /** Looks at the queue now. */
  wake(): void;
  /** Runs every due job to its end, and what falls due meanwhile, then resolves (tests, tools). */
  runDue(): Promise<RunSummary>;
  /** Takes back the jobs of dead workers; answers how many. */
  recoverStale(): Promise<number>;
  /** Fires the due schedules now; answers how many fired. */
  tickSchedules(): Promise<number>;
}

interface Active {
  kind: string;
  done: Promise<void>;
}

export function createJobRunner(deps: Deps, options: JobRunnerOptions): JobRunner {
  const workerId = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  const definitions = new Map(options.definitions.map((d) => [d.kind, d]));
  const schedules = options.schedules ?? [];
  const heartbeatMs = options.heartbeatMs ?? HEARTBEAT_MS;
  const staleAfterMs = options.staleAfterMs ?? STALE_AFTER_MS;
  const recoverEveryMs = options.recoverEveryMs ?? RECOVER_EVERY_MS;
  const stopGraceMs = options.stopGraceMs ?? STOP_GRACE_MS;
  const log = deps.log;

  const active = new Map<bigint, Active>();
  const background = newSummary();
  let started = false;
  let listener: NotificationListener | null = null;
  let pumping: Promise<void> | null = null;
  let again = false;
  let lastRecovery = Number.NEGATIVE_INFINITY;
  let dueTimer: NodeJS.Timeout | null = null;
  let scheduleTimer: NodeJS.Timeout | null = null;
  let heartbeatTimer: NodeJS.Timeout | null = null;
  let ticking: Promise<void> | null = null;
  /** Aborted when stop() gives up waiting: running handlers are told to end. */
  let stopping = new AbortController();

  const activeOf = (kind: string) => {
    let n = 0;
    for (const a of active.values()) if (a.kind === kind) n += 1;
    return n;
  };
  const freeSlots = (def: JobDefinition) => (def.concurrency ?? 1) - activeOf(def.kind);
  function launch(def: JobDefinition, job: repo.ClaimedJob, summary: RunSummary): Promise<void> {
    const entry: Active = { kind: def.kind, done: Promise.resolve() };
    entry.done = execute(deps, def, job, stopping.signal, summary)
      .catch((err) => log.error({ err, jobId: String(job.id), kind: job.kind }, 'job could not be recorded'))
      .finally(() => {
        active.delete(job.id);
        if (active.size === 0 && heartbeatTimer) {
          clearInterval(heartbeatTimer);
          heartbeatTimer = null;
        }
        wake();
      });
    active.set(job.id, entry);
    if (!heartbeatTimer) {
      heartbeatTimer = setInterval(() => {
        const ids = [...active.keys()];
        if (ids.length === 0) return;
        repo
          .heartbeat(deps.db, ids, workerId, deps.now())
          .catch((err) => log.warn({ err }, 'job heartbeat failed'));
      }, heartbeatMs);
      heartbeatTimer.unref();
    }
    return entry.done;
  }

  /** Claims what the free slots can take, for every kind; answers the runs started. */
  async function claimAll(summary: RunSummary): Promise<Promise<void>[]> {
    const runs: Promise<void>[] = [];
    for (const def of definitions.values()) {
      const free = freeSlots(def);
      if (free <= 0) continue;
      const jobs = await repo.claim(deps.db, def.kind, free, workerId, deps.now());
      for (const job of jobs) runs.push(launch(def, job, summary));
    }
    return runs;
  }

  async function recoverStale(summary: RunSummary): Promise<number> {
    const cutoff = new Date(deps.now().getTime() - staleAfterMs);
    let total = 0;
    for (;;) {
      const n = await deps.db.$transaction(async (tx) => {
        const stale = await repo.lockStale(tx, cutoff, RECOVER_BATCH);
        for (const job of stale) {
          const def = definitions.get(job.kind);
          const outcome = failure(deps, def, job, STALE_MESSAGE);
          await settle(deps, def, job, outcome, tx);
          if (outcome.status === 'failed') summary.failed += 1;
          log.warn(
            { jobId: String(job.id), kind: job.kind, worker: job.lockedBy },
            'took back a job of a dead worker',
          );
        }
        return stale.length;
      });
      total += n;
      if (n < RECOVER_BATCH) break;
    }
    summary.recovered += total;
    return total;
  }

  /** Looks again after `wait` ms (at most the poll interval). */
  function wakeIn(wait: number) {
    if (dueTimer) clearTimeout(dueTimer);
    dueTimer = null;
    if (!started) return;
    dueTimer = setTimeout(
      () => {
        dueTimer = null;
        wake();
      },
      Math.min(wait, options.pollMs),
    );
    dueTimer.unref();
  }

  /** Looks again when the next job of a kind with a free slot falls due, or at the next poll. */
  async function armDueTimer() {
    const open = [...definitions.values()].filter((d) => freeSlots(d) > 0).map((d) => d.kind);
    const next = await repo.nextDueAt(deps.db, open);
    wakeIn(next === null ? options.pollMs : Math.max(50, next - deps.now().getTime()));
  }

  async function pass() {
    if (Date.now() - lastRecovery >= recoverEveryMs) {
      lastRecovery = Date.now();
      await recoverStale(background);
    }
    await claimAll(background);
    await armDueTimer();
  }

  function wake() {
    if (!started) return;
    if (pumping) {
      again = true;
      return;
    }
    pumping = (async () => {
      do {
        again = false;
        try {
          await pass();
        } catch (err) {
          log.error({ err }, 'job runner pass failed');
          wakeIn(options.pollMs); // the database is unreachable, say: look again at the next poll
        }
      } while (again && started);
    })().finally(() => {
      pumping = null;
    });
  }

  async function tick(): Promise<number> {
    let nextAt: Date | null = null;
    try {
      const result = await fireDueSchedules(deps.db, schedules, deps.now(), log);
      nextAt = result.nextAt;
      return result.fired;
    } finally {
      // Again when the next one is due, and at least every poll (a stored expression may change).
      if (started) {
        if (scheduleTimer) clearTimeout(scheduleTimer);
        const wait = nextAt
          ? Math.max(200, Math.min(nextAt.getTime() - deps.now().getTime(), options.pollMs))
          : options.pollMs;
        scheduleTimer = setTimeout(() => {
          scheduleTimer = null;
          tickSoon();
        }, wait);
        scheduleTimer.unref();
      }
    }
  }

  function tickSoon() {
    if (!started || schedules.length === 0 || ticking) return;
    ticking = tick()
      .then(() => {})
      .catch((err) => log.error({ err }, 'schedules could not be checked'))
      .finally(() => {
        ticking = null;
      });
  }

  return {
    workerId,
    get listening() {
      return listener?.connected ?? false;
    },
    async start() {
      if (started) return;
      started = true;
      stopping = new AbortController();
      if (options.listen !== false) {
        listener = listenForNotifications(
          databaseUrlOf(deps.db),
          JOBS_CHANNEL,
          {
            onNotify: (payload) => {
              if (payload === SCHEDULES_CHANGED) tickSoon();
              else if (definitions.has(payload)) wake();
            },
            onConnect: () => {
              wake();
              tickSoon();
            },
          },
          log,
        );
        await listener.firstAttempt;
      }
      wake();
      tickSoon();
    },
    async stop() {
      if (!started) return;
      started = false;
      for (const t of [dueTimer, scheduleTimer]) if (t) clearTimeout(t);
      dueTimer = null;
      scheduleTimer = null;
      await listener?.close();
      listener = null;
      await pumping;
      await ticking;
      const running = () => Promise.allSettled([...active.values()].map((a) => a.done));
      let graceTimer: NodeJS.Timeout | undefined;
      await Promise.race([
        running(),
        new Promise<void>((r) => {
          graceTimer = setTimeout(r, stopGraceMs);
        }),
      ]);
      clearTimeout(graceTimer);
      if (active.size > 0) {
        stopping.abort();
        await running();
      }
    },
    wake,
    async runDue() {
      const summary = newSummary();
      await recoverStale(summary);
      for (;;) {
        const runs = await claimAll(summary);
        if (runs.length === 0) break;
        await Promise.all(runs);
      }
      return summary;
    },
    recoverStale: () => recoverStale(newSummary()),
    tickSchedules: async () => (await fireDueSchedules(deps.db, schedules, deps.now(), log)).fired,
  };
}
