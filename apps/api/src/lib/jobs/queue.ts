import type { Tx } from '../deps.js';

// Putting work on the job queue (the `jobs` table, decision 010). Everything here runs in
// the caller's transaction: a job exists, and its wake-up is sent, only if the change that
// asked for it commits. PostgreSQL delivers a NOTIFY at commit to every listening session,
// so the workers of every server hear of it at once; a rolled-back transaction sends none.

/** The channel workers LISTEN on. The payload is the job's kind, or SCHEDULES_CHANGED. */
export const JOBS_CHANNEL = 'quire_jobs';
/** Payload that makes workers look at the recurring schedules again (a stored cron changed). */
export const SCHEDULES_CHANGED = '@schedules';

/**
 * The payload of each job kind. Each area adds its kinds where it defines them:
 *
 *   declare module '../../lib/jobs/queue.js' {
 *     interface JobPayloads { 'mail.send': { mail_id: number } }
 *   }
 *
 * so `enqueue(tx, 'mail.send', { mail_id })` is checked by the compiler.
 */
// biome-ignore lint/suspicious/noEmptyInterface: filled by declaration merging, per kind.
export interface JobPayloads {}
export type JobKind = keyof JobPayloads & string;

interface EnqueueOptions {
  /**
   * At most one queued or running job has this key: a second enqueue with the same key while
   * the first is waiting or running adds nothing (and answers null).
   */
  key?: string;
  /** Not before this time (default: now, by the database's clock). */
  runAt?: Date;
  /** Attempts before the job is failed for good (default 5). */
  maxAttempts?: number;
}

export const DEFAULT_MAX_ATTEMPTS = 5;

/** `timestamp(3)` columns hold UTC: compare and write explicit UTC values. */
export const utc = (d: Date) => d.toISOString();

/**
 * Queues a job inside the caller's transaction and wakes the workers when it commits.
 * Answers the job's id, or null when a job with the same `key` is already queued or running.
 */
export async function enqueue<K extends JobKind>(
  tx: Tx,
  kind: K,
  payload: JobPayloads[K],
  options: EnqueueOptions = {},
): Promise<bigint | null> {
  const maxAttempts = options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS;
  const runAt = options.runAt ? utc(options.runAt) : null;
  const rows = await tx.$queryRaw<Array<{ id: bigint }>>`
    WITH added AS (
      INSERT INTO jobs (kind, payload, max_attempts, run_at, key, created_at)
      VALUES (
        ${kind},
        ${JSON.stringify(payload ?? {})}::jsonb,
        ${maxAttempts},
        COALESCE(${runAt}::timestamptz, now()) AT TIME ZONE 'UTC',
        ${options.key ?? null},
        now() AT TIME ZONE 'UTC'
      )
      ON CONFLICT (key) WHERE status IN ('queued', 'running') DO NOTHING
      RETURNING id
    )
    SELECT id, pg_notify(${JOBS_CHANNEL}, ${kind})::text AS notified FROM added`;
  return rows[0]?.id ?? null;
}

/**
 * Queues many jobs in one statement inside the caller's transaction (one row each, one wake-up
 * per kind at commit): for a change that feeds several areas at once, or a bulk action.
 * A job may carry its own `key` (as `enqueue`'s: not added while one with that key is queued
 * or running) and `maxAttempts` (else the options', else 5). Answers the added jobs' ids, in
 * the order given.
 */
export async function enqueueMany<K extends JobKind>(
  tx: Tx,
  jobs: ReadonlyArray<{ kind: K; payload: JobPayloads[K]; key?: string; maxAttempts?: number }>,
  options: Omit<EnqueueOptions, 'key'> = {},
): Promise<bigint[]> {
  if (jobs.length === 0) return [];
  const maxAttempts = options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS;
  const runAt = options.runAt ? utc(options.runAt) : null;
  const rows = await tx.$queryRaw<Array<{ id: bigint }>>`
    WITH added AS (
      INSERT INTO jobs (kind, payload, max_attempts, run_at, key, created_at)
      SELECT j.kind, j.payload::jsonb, j.max_attempts,
             COALESCE(${runAt}::timestamptz, now()) AT TIME ZONE 'UTC', j.key, now() AT TIME ZONE 'UTC'
        FROM unnest(${jobs.map((j) => j.kind)}::text[], ${jobs.map((j) => JSON.stringify(j.payload ?? {}))}::text[],
                    ${jobs.map((j) => j.maxAttempts ?? maxAttempts)}::int[], ${jobs.map((j) => j.key ?? null)}::text[])
             WITH ORDINALITY AS j(kind, payload, max_attempts, key, n)
       ORDER BY j.n
      ON CONFLICT (key) WHERE status IN ('queued', 'running') DO NOTHING
      RETURNING id, kind
    ), woken AS (
      SELECT count(pg_notify(${JOBS_CHANNEL}, kinds.kind)) AS notified FROM (SELECT DISTINCT kind FROM added) kinds
    )
    SELECT a.id FROM added a CROSS JOIN woken ORDER BY a.id`;
  return rows.map((r) => r.id);
}

/** Deletes the queued (not running) job with this key; answers whether there was one. */
export async function cancelQueued(tx: Tx, key: string): Promise<boolean> {
  const n = await tx.$executeRaw`DELETE FROM jobs WHERE key = ${key} AND status = 'queued'`;
  return n > 0;
}

/**
 * Makes every queued job of `kind` due now (waiting out a back-off or a deferral), and wakes
 * the workers on commit: for when the reason they wait has gone (e-mail settings saved).
 */
export async function retryQueuedNow(tx: Tx, kind: JobKind): Promise<number> {
  const n = await tx.$executeRaw`
    UPDATE jobs SET run_at = now() AT TIME ZONE 'UTC'
    WHERE kind = ${kind} AND status = 'queued' AND run_at > now() AT TIME ZONE 'UTC'`;
  await tx.$executeRaw`SELECT pg_notify(${JOBS_CHANNEL}, ${kind})`;
  return n;
}

/** Wakes the workers to look at the schedules again once the caller's transaction commits. */
export async function notifySchedulesChanged(tx: Tx): Promise<void> {
  await tx.$executeRaw`SELECT pg_notify(${JOBS_CHANNEL}, ${SCHEDULES_CHANGED})`;
}
