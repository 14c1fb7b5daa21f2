import type { Db } from '@quire/db';
import { CronExpressionParser } from 'cron-parser';
import type { FastifyBaseLogger } from 'fastify';
import { z } from 'zod';
import type { Deps, Tx } from '../deps.js';
import type { JobDefinition } from './definition.js';
import { enqueue, type JobKind, type JobPayloads, utc } from './queue.js';

// Recurring schedules. Each is a cron expression (the syntax of cron and node-cron: five
// fields, or six with seconds first) and the job kind it enqueues when due. The expression is
// fixed in code, or read from the database at every look (a schedule row an admin edits).
//
// Every worker looks at the schedules; a due time fires once across all of them because
// firing is a compare-and-set on `job_schedules.last_due_at` under the row's lock: the first
// worker moves it to the due time and enqueues the job in the same transaction, the others
// then find it there and do nothing. Only the latest due time fires (a server that was down
// over several due times runs the job once when it is back), and a new or changed expression
// starts from its next due time.

export interface ScheduleDefinition {
  /** Unique name, the key of its `job_schedules` row, e.g. `blobs.collect`, `backup`. */
  name: string;
  /** The job to enqueue when due; its payload is `payload(dueAt)`. */
  kind: JobKind;
  /** A cron expression, or a reader for one stored in the database (null: the schedule is off). */
  cron: string | ((db: Tx) => Promise<string | null>);
  payload?: (dueAt: Date) => JobPayloads[JobKind];
  /** IANA time zone the expression is read in (default: the server's, TZ). */
  timezone?: string;
}

/** A schedule's job payload when none is given: when it was due. */
export type ScheduledPayload = { due_at: string };

/** The job kinds whose payload is a ScheduledPayload. */
type ScheduledKind = { [K in JobKind]: JobPayloads[K] extends ScheduledPayload ? K : never }[JobKind];

/**
 * The job a schedule enqueues, for work that needs nothing but `deps` (a poll, a scan, a
 * clock): its payload is only the time it was due.
 */
export function scheduledJob(
  kind: ScheduledKind,
  timeoutMs: number,
  work: (deps: Deps) => Promise<unknown>,
): JobDefinition {
  const definition: JobDefinition<ScheduledPayload> = {
    kind,
    payload: z.object({ due_at: z.string() }),
    timeoutMs,
    async run(_job, deps) {
      await work(deps);
    },
  };
  return definition as unknown as JobDefinition;
}

export class CronError extends Error {
  override name = 'CronError';
}

function parse(expression: string, currentDate: Date, timezone?: string) {
  try {
    return CronExpressionParser.parse(expression, { currentDate, ...(timezone ? { tz: timezone } : {}) });
  } catch (err) {
    throw new CronError(`Not a valid cron expression (${expression}): ${(err as Error).message}`);
  }
}

/**
 * What to tell a person whose expression passed the contract's field checks (`cronProblem`)
 * but not the parser: in practice a day that its months never have.
 */
export const CRON_NEVER_DUE =
  'This schedule never comes due: check that its days exist in its months (there is no 30 February)';

/** Throws CronError naming what is wrong; for areas that store an expression people type. */
export function checkCron(expression: string, timezone?: string): void {
  parse(expression, new Date(), timezone);
}

/** The latest due time at or before `now`. */
export function previousDue(expression: string, now: Date, timezone?: string): Date {
  return parse(expression, new Date(now.getTime() + 1), timezone)
    .prev()
    .toDate();
}

/** The first due time after `now`. */
export function nextDue(expression: string, now: Date, timezone?: string): Date {
  return parse(expression, now, timezone).next().toDate();
}

interface ScheduleRow {
  cron: string | null;
  lastDueAt: number | null;
}

/**
 * Fires the schedule if a due time has passed that has not fired yet (on any server).
 * Answers whether this call fired it.
 */
async function fireIfDue(db: Db, s: ScheduleDefinition, cron: string | null, now: Date) {
  const due = cron === null ? null : previousDue(cron, now, s.timezone);
  return db.$transaction(async (tx) => {
    const dueAt = due ? utc(due) : null;
    const created = await tx.$executeRaw`
      INSERT INTO job_schedules (name, cron, last_due_at, created_at, updated_at)
      VALUES (${s.name}, ${cron}, ${dueAt}::timestamptz AT TIME ZONE 'UTC',
              now() AT TIME ZONE 'UTC', now() AT TIME ZONE 'UTC')
      ON CONFLICT (name) DO NOTHING`;
    // A schedule seen for the first time starts from its next due time.
    if (created > 0) return false;
    const [row] = await tx.$queryRaw<ScheduleRow[]>`
      SELECT cron, (extract(epoch FROM last_due_at AT TIME ZONE 'UTC') * 1000)::float8 AS "lastDueAt"
      FROM job_schedules WHERE name = ${s.name} FOR UPDATE`;
    if (!row) return false;
    if (row.cron !== cron) {
      // Changed or switched off (or on): start afresh from the next due time.
      await tx.$executeRaw`
        UPDATE job_schedules SET cron = ${cron},
          last_due_at = ${dueAt}::timestamptz AT TIME ZONE 'UTC', updated_at = now() AT TIME ZONE 'UTC'
        WHERE name = ${s.name}`;
      return false;
    }
    if (!due || (row.lastDueAt !== null && row.lastDueAt >= due.getTime())) return false;
    await tx.$executeRaw`
      UPDATE job_schedules SET last_due_at = ${dueAt}::timestamptz AT TIME ZONE 'UTC',
        updated_at = now() AT TIME ZONE 'UTC'
      WHERE name = ${s.name}`;
    const payload = s.payload ? s.payload(due) : ({ due_at: due.toISOString() } as ScheduledPayload);
    // One run of a schedule at a time: while the last one is still queued or running, this
    // due time is skipped rather than piled up behind it.
    await enqueue(tx, s.kind, payload as JobPayloads[JobKind], { key: `schedule:${s.name}`, runAt: now });
    return true;
  });
}

/**
 * Looks at every schedule once: fires the due ones, and answers how many fired and when the
 * next one is due (to look again then).
 */
export async function fireDueSchedules(
  db: Db,
  schedules: ScheduleDefinition[],
  now: Date,
  log: FastifyBaseLogger,
): Promise<{ fired: number; nextAt: Date | null }> {
  let fired = 0;
  let nextAt: Date | null = null;
  for (const s of schedules) {
    try {
      const cron = typeof s.cron === 'string' ? s.cron : await s.cron(db);
      if (await fireIfDue(db, s, cron, now)) fired += 1;
      if (cron !== null) {
        const next = nextDue(cron, now, s.timezone);
        if (!nextAt || next < nextAt) nextAt = next;
      }
    } catch (err) {
      log.error({ err, schedule: s.name }, 'schedule could not be checked');
    }
  }
  return { fired, nextAt };
}
