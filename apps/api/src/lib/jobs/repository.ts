import type { Tx } from '../deps.js';
import type { JobOutcome } from './definition.js';
import { utc } from './queue.js';

// The runner's queries on `jobs`. Times are written and compared as explicit UTC (the column
// type is `timestamp(3)`, see docs/data-model.md), from the runner's clock (deps.now).

export interface ClaimedJob {
  id: bigint;
  kind: string;
  payload: unknown;
  attempts: number;
  maxAttempts: number;
  lockedBy: string | null;
}

/** Which claim an update belongs to: a late update from a claim that was taken back changes nothing. */
export type Claim = Pick<ClaimedJob, 'id' | 'attempts' | 'lockedBy'>;

const at = (d: Date) => utc(d);

/**
 * Claims up to `limit` due jobs of one kind in one statement: the due rows are locked with
 * SKIP LOCKED (rows another worker is claiming are skipped, never waited for or taken twice),
 * marked running by `worker`, and their attempt counted.
 */
export function claim(db: Tx, kind: string, limit: number, worker: string, now: Date) {
  // The due rows are chosen once, in a MATERIALIZED CTE: a subquery in FROM may be rescanned
  // by the plan (a nested loop), and each rescan of a SKIP LOCKED subquery can pick other rows,
  // so more than `limit` jobs would be claimed (seen: 8 claimed with a limit of 3).
  return db.$queryRaw<ClaimedJob[]>`
    WITH due AS MATERIALIZED (
      SELECT id FROM jobs
      WHERE status = 'queued' AND kind = ${kind}
        AND run_at <= ${at(now)}::timestamptz AT TIME ZONE 'UTC'
      ORDER BY run_at, id
      LIMIT ${limit}
      FOR UPDATE SKIP LOCKED
    )
    UPDATE jobs j SET
      status = 'running',
      attempts = j.attempts + 1,
      locked_by = ${worker},
      heartbeat_at = ${at(now)}::timestamptz AT TIME ZONE 'UTC'
    FROM due
    WHERE j.id = due.id
    RETURNING j.id, j.kind, j.payload, j.attempts, j.max_attempts AS "maxAttempts", j.locked_by AS "lockedBy"`;
}

/** The attempt succeeded. Answers false when the claim was taken back meanwhile. */
export async function finish(db: Tx, c: Claim, now: Date): Promise<boolean> {
  const n = await db.$executeRaw`
    UPDATE jobs SET status = 'done', finished_at = ${at(now)}::timestamptz AT TIME ZONE 'UTC',
      locked_by = NULL, heartbeat_at = NULL, last_error = NULL
    WHERE id = ${c.id} AND status = 'running' AND locked_by = ${c.lockedBy} AND attempts = ${c.attempts}`;
  return n > 0;
}

/** The attempt did not succeed: back to the queue or failed for good. False when the claim was lost. */
export async function settle(tx: Tx, c: Claim, outcome: JobOutcome, now: Date): Promise<boolean> {
  const failed = outcome.status === 'failed';
  const n = await tx.$executeRaw`
    UPDATE jobs SET
      status = ${outcome.status}::"JobStatus",
      attempts = ${outcome.attempts},
      run_at = ${at(outcome.runAt)}::timestamptz AT TIME ZONE 'UTC',
      last_error = ${outcome.error},
      locked_by = NULL,
      heartbeat_at = NULL,
      finished_at = ${failed ? at(now) : null}::timestamptz AT TIME ZONE 'UTC'
    WHERE id = ${c.id} AND status = 'running' AND locked_by = ${c.lockedBy} AND attempts = ${c.attempts}`;
  return n > 0;
}

/** Running jobs whose worker has not beaten since `cutoff` (it died), locked for this transaction. */
export function lockStale(tx: Tx, cutoff: Date, limit: number) {
  return tx.$queryRaw<ClaimedJob[]>`
    SELECT id, kind, payload, attempts, max_attempts AS "maxAttempts", locked_by AS "lockedBy"
    FROM jobs
    WHERE status = 'running' AND heartbeat_at < ${at(cutoff)}::timestamptz AT TIME ZONE 'UTC'
    ORDER BY heartbeat_at
    LIMIT ${limit}
    FOR UPDATE SKIP LOCKED`;
}

/** The worker is alive and still running these jobs. */
export function heartbeat(db: Tx, ids: bigint[], worker: string, now: Date) {
  return db.$executeRaw`
    UPDATE jobs SET heartbeat_at = ${at(now)}::timestamptz AT TIME ZONE 'UTC'
    WHERE id = ANY(${ids}::bigint[]) AND status = 'running' AND locked_by = ${worker}`;
}

/** When the next queued job of these kinds is due (ms since the epoch), or null. */
export async function nextDueAt(db: Tx, kinds: string[]): Promise<number | null> {
  if (kinds.length === 0) return null;
  const rows = await db.$queryRaw<Array<{ at: number | null }>>`
    SELECT (extract(epoch FROM min(run_at) AT TIME ZONE 'UTC') * 1000)::float8 AS at
    FROM jobs WHERE status = 'queued' AND kind = ANY(${kinds}::text[])`;
  return rows[0]?.at ?? null;
}

/** Deletes up to `limit` jobs done before `doneBefore` or failed before `failedBefore`. */
export function deleteFinished(db: Tx, doneBefore: Date, failedBefore: Date, limit: number) {
  return db.$executeRaw`
    DELETE FROM jobs WHERE id IN (
      SELECT id FROM jobs
      WHERE (status = 'done' AND finished_at < ${at(doneBefore)}::timestamptz AT TIME ZONE 'UTC')
         OR (status = 'failed' AND finished_at < ${at(failedBefore)}::timestamptz AT TIME ZONE 'UTC')
      LIMIT ${limit})`;
}
