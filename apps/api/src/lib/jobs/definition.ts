import type { z } from 'zod';
import type { Deps, Tx } from '../deps.js';
import type { JobKind, JobPayloads } from './queue.js';

/** What a handler is given: the job as claimed, its payload checked by the kind's schema. */
interface RunningJob<P> {
  id: bigint;
  kind: string;
  payload: P;
  /** This attempt's number: 1 on the first run. */
  attempts: number;
  maxAttempts: number;
  /** Aborted when the job times out or the worker stops: stop early, the attempt is over. */
  signal: AbortSignal;
}

/**
 * Where a job goes when an attempt ends without success: back to the queue at `runAt`, or
 * failed for good. `attempts` is what the job's row now says.
 */
export interface JobOutcome {
  status: 'queued' | 'failed';
  attempts: number;
  runAt: Date;
  error: string;
}

export interface JobDefinition<P = unknown> {
  kind: string;
  /** Checks the stored payload before each run; a payload that fails is failed for good. */
  payload: z.ZodType<P>;
  /**
   * Does the work. Resolving marks the job done; throwing counts a failed attempt (retried
   * after `backoffMs` until max attempts); throwing JobDeferred waits without spending one.
   * A job runs at least once: when its worker dies mid-run it runs again, so a handler
   * checks its own state first (a mail already marked sent is not sent again).
   */
  run(job: RunningJob<P>, deps: Deps): Promise<void>;
  /** Jobs of this kind one worker process runs at once (default 1). */
  concurrency?: number;
  /** Delay before the next try after `attempts` failed ones (default: 30 s doubling, at most 1 h). */
  backoffMs?(attempts: number): number;
  /** An attempt running longer is aborted and counted as failed (default 10 minutes). */
  timeoutMs?: number;
  /** One line for `last_error` from a thrown error (default: its message). */
  describeError?(err: unknown): string;
  /**
   * Called in the transaction that records a failed, timed-out, interrupted or deferred
   * attempt, so the kind can mirror it on its own rows (the mail queue's status).
   */
  onFailure?(tx: Tx, job: { id: bigint; payload: P }, outcome: JobOutcome): Promise<void>;
}

/** A kind's definition, its payload type taken from JobPayloads. Register it in src/jobs.ts. */
export function defineJob<K extends JobKind>(
  definition: JobDefinition<JobPayloads[K]> & { kind: K },
): JobDefinition {
  return definition as unknown as JobDefinition;
}

/**
 * Thrown by a handler that cannot run yet for a reason outside the job (e-mail is not
 * configured): the job waits `delayMs` and runs again without spending an attempt.
 */
export class JobDeferred extends Error {
  override name = 'JobDeferred';
  constructor(
    message: string,
    readonly delayMs: number,
  ) {
    super(message);
  }
}

export const BACKOFF_BASE_MS = 30_000;
const BACKOFF_MAX_MS = 60 * 60_000;

/** 30 s after the first failure, then 1 min, 2 min, … at most 1 h. */
export function defaultBackoffMs(attempts: number): number {
  return Math.min(BACKOFF_BASE_MS * 2 ** Math.max(0, attempts - 1), BACKOFF_MAX_MS);
}

/** An error as one line of at most 1,000 characters. */
export function describeError(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  return message.replace(/\s+/g, ' ').trim().slice(0, 1000) || 'Unknown error';
}
