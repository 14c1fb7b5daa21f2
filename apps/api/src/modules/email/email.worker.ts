import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../lib/deps.js';
import * as repo from './email.repository.js';
import { deliver, describeSmtpError } from './email.transport.js';

// The outgoing mail worker. Everything lives in mail_jobs, so it survives restarts; claims
// use FOR UPDATE SKIP LOCKED, so with several servers each job is sent once.
//
//   queued --claim--> sending --ok--> sent
//                        |--error--> queued (attempts+1, run_at = now + back-off) or failed
//   sending for > 10 minutes (its server died) --> queued again (the attempt counts)
//
// locked_at is set at the claim and again just before each delivery, so only a job whose
// delivery started more than 10 minutes ago (or that waited that long in a batch) is stuck.

export const STUCK_AFTER_MS = 10 * 60_000;
export const BACKOFF_BASE_MS = 30_000;
export const BACKOFF_MAX_MS = 60 * 60_000;
export const NOT_CONFIGURED_MESSAGE =
  'E-mail is not configured; the message waits until SMTP settings are saved';
const STUCK_MESSAGE = 'Delivery was interrupted (the server stopped while sending); retrying';
const BATCH = 10;

/** Delay before the next try after `attemptsSoFar` failed attempts: 30 s, 1 min, 2 min, … capped at 1 h. */
export function backoffMs(attemptsSoFar: number): number {
  return Math.min(BACKOFF_BASE_MS * 2 ** Math.max(0, attemptsSoFar - 1), BACKOFF_MAX_MS);
}

export interface MailRunSummary {
  sent: number;
  retried: number;
  failed: number;
  recovered: number;
  /** true when nothing could go out because e-mail is not configured. */
  notConfigured: boolean;
}

/** One pass over the queue: recover stuck jobs, then send every due job. Safe to run anywhere, any time. */
export async function processDueMail(
  deps: Deps,
  options: { shouldStop?: () => boolean } = {},
): Promise<MailRunSummary> {
  const summary: MailRunSummary = { sent: 0, retried: 0, failed: 0, recovered: 0, notConfigured: false };
  const started = deps.now();
  summary.recovered = await repo.recoverStuckJobs(
    deps.db,
    new Date(started.getTime() - STUCK_AFTER_MS),
    started,
    STUCK_MESSAGE,
  );

  const settings = await repo.findSettings(deps.db);
  if (!settings) {
    await repo.noteNotConfigured(deps.db, started, NOT_CONFIGURED_MESSAGE);
    summary.notConfigured = true;
    return summary;
  }

  for (;;) {
    if (options.shouldStop?.()) break;
    const jobs = await deps.db.$transaction((tx) => repo.claimDueJobs(tx, deps.now(), BATCH));
    for (const job of jobs) {
      // The clock for STUCK_AFTER_MS starts now, not at the claim: a slow batch is not a dead
      // server. A job recovered by another server while it waited in this batch is theirs now.
      const mine = await repo.markDelivering(deps.db, job, deps.now());
      if (mine.count === 0) continue;
      try {
        await deliver(settings, deps.secretKey, job);
        await repo.markSent(deps.db, job, deps.now());
        summary.sent += 1;
      } catch (err) {
        const attempts = job.attempts + 1;
        const giveUp = attempts >= job.maxAttempts;
        const lastError = describeSmtpError(err);
        await repo.markAttemptFailed(deps.db, job, {
          attempts,
          lastError,
          giveUp,
          runAt: giveUp ? job.runAt : new Date(deps.now().getTime() + backoffMs(attempts)),
        });
        if (giveUp) summary.failed += 1;
        else summary.retried += 1;
        deps.log.warn(
          { jobId: job.id, kind: job.kind, attempts, giveUp, err: lastError },
          'mail delivery failed',
        );
      }
    }
    if (jobs.length < BATCH) break;
  }
  return summary;
}

export interface MailWorker {
  /** Starts polling every `pollMs` (and runs once at once). */
  start(): void;
  /** Stops polling and waits for a pass in progress. */
  stop(): Promise<void>;
  /** Runs a pass now (or joins the one in progress, which then runs once more); resolves when done. */
  kick(): Promise<void>;
}

const liveWorkers = new Set<MailWorker>();
let nudgeTimer: NodeJS.Timeout | null = null;

/**
 * Called by enqueueMail: a started worker in this process looks at the queue shortly,
 * instead of at its next poll. The delay lets the enqueuing transaction commit first; if it
 * takes longer, the next poll finds the job.
 */
export function nudgeMailWorkers(delayMs = 250): void {
  if (nudgeTimer || liveWorkers.size === 0) return;
  nudgeTimer = setTimeout(() => {
    nudgeTimer = null;
    for (const w of liveWorkers) void w.kick();
  }, delayMs);
  nudgeTimer.unref();
}

export function createMailWorker(deps: Deps, options: { pollMs: number }): MailWorker {
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> | null = null;
  let again = false;
  let stopped = true;
  let closing = false;

  const pass = async () => {
    try {
      await processDueMail(deps, { shouldStop: () => closing });
    } catch (err) {
      deps.log.error({ err }, 'mail worker pass failed');
    }
  };

  const schedule = () => {
    if (stopped || timer) return;
    timer = setTimeout(() => {
      timer = null;
      void worker.kick().then(schedule);
    }, options.pollMs);
    timer.unref();
  };

  const worker: MailWorker = {
    start() {
      if (!stopped) return;
      stopped = false;
      closing = false;
      liveWorkers.add(worker);
      void worker.kick().then(schedule);
    },
    async stop() {
      stopped = true;
      closing = true;
      liveWorkers.delete(worker);
      if (timer) clearTimeout(timer);
      timer = null;
      again = false;
      await running;
    },
    kick() {
      if (running) {
        again = true;
        return running;
      }
      running = (async () => {
        do {
          again = false;
          await pass();
        } while (again);
      })().finally(() => {
        running = null;
      });
      return running;
    },
  };
  return worker;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The outgoing mail worker; `app.mailWorker.kick()` sends due mail now. */
    mailWorker: MailWorker;
  }
}

/** Gives the app its mail worker: polling starts when the app is ready (MAIL_WORKER) and stops on close. */
export function attachMailWorker(app: FastifyInstance, deps: Deps): MailWorker {
  const worker = createMailWorker(deps, { pollMs: deps.config.MAIL_POLL_MS });
  app.decorate('mailWorker', worker);
  if (deps.config.MAIL_WORKER) app.addHook('onReady', async () => worker.start());
  app.addHook('onClose', async () => worker.stop());
  return worker;
}
