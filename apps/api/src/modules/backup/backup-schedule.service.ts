import type { TBackupSchedule, TScheduleBackupBody } from '@quire/contract';
import { assertCompanyAdmin } from '../../lib/access-types.js';
import { type Actor, audit } from '../../lib/audit.js';
import type { Deps, Tx } from '../../lib/deps.js';
import { notifySchedulesChanged } from '../../lib/jobs/queue.js';
import { CRON_NEVER_DUE, CronError, checkCron, nextDue } from '../../lib/jobs/schedules.js';
import type { AuthContext } from '../../lib/session.js';
import { badCron, MANAGE_BACKUPS } from './backup.errors.js';
import * as repo from './backup.repository.js';

// The backup schedule (spec §3): when the scheduled backup runs (a cron kept in settings,
// described back as daily or weekly at a time), how many scheduled archives are kept, and
// the pruning of older ones after each scheduled run.

const DEFAULT_CRON = '0 2 * * *';
const DEFAULT_KEEP = 7;

/** daily / weekly / custom read back from the stored expression. */
function describeCron(cron: string): Pick<TBackupSchedule, 'frequency' | 'time' | 'day_of_week'> {
  const m = /^(\d{1,2}) (\d{1,2}) \* \* (\*|[0-6])$/.exec(cron);
  if (!m) return { frequency: 'custom', time: null, day_of_week: null };
  const time = `${m[2]!.padStart(2, '0')}:${m[1]!.padStart(2, '0')}`;
  return m[3] === '*'
    ? { frequency: 'daily', time, day_of_week: null }
    : { frequency: 'weekly', time, day_of_week: Number(m[3]) };
}

export async function scheduleDto(deps: Deps): Promise<TBackupSchedule> {
  const s = await repo.findSchedule(deps.db);
  const cron = s?.cron ?? DEFAULT_CRON;
  const enabled = s?.enabled ?? false;
  return {
    enabled,
    ...describeCron(cron),
    cron,
    keep_last: s?.keepLast ?? DEFAULT_KEEP,
    next_run_at: enabled ? nextDue(cron, deps.now()).toISOString() : null,
    updated_at: s?.updatedAt.toISOString() ?? null,
  };
}

/** The cron expression of the schedule, for the job runner (null: off). */
export async function scheduledCron(db: Tx): Promise<string | null> {
  const s = await repo.findSchedule(db);
  return s?.enabled ? s.cron : null;
}

function cronOf(body: TScheduleBackupBody): string {
  if (body.frequency === 'custom') {
    const cron = (body.cron ?? '').trim();
    try {
      checkCron(cron);
    } catch (err) {
      // The contract has checked each field; the parser's own words are not for people.
      if (err instanceof CronError) throw badCron(CRON_NEVER_DUE);
      throw err;
    }
    return cron;
  }
  const [h, m] = (body.time ?? '02:00').split(':').map(Number);
  return `${m} ${h} * * ${body.frequency === 'weekly' ? (body.day_of_week ?? 0) : '*'}`;
}

export async function saveSchedule(
  deps: Deps,
  auth: AuthContext,
  actor: Actor,
  body: TScheduleBackupBody,
): Promise<TBackupSchedule> {
  assertCompanyAdmin(auth, MANAGE_BACKUPS);
  const cron = cronOf(body);
  await deps.db.$transaction(async (tx) => {
    await repo.saveSchedule(tx, {
      enabled: body.enabled,
      cron,
      keepLast: body.keep_last,
      updatedById: actor.userId,
    });
    await notifySchedulesChanged(tx);
    await audit(tx, actor, {
      type: 'backup',
      action: 'backup.schedule_saved',
      message: body.enabled
        ? `Backups scheduled (${cron}), keeping the last ${body.keep_last}`
        : 'Scheduled backups turned off',
      targetType: 'backup_schedule',
      targetId: repo.SCHEDULE_ID,
      details: { enabled: body.enabled, cron, keep_last: body.keep_last },
    });
  });
  return scheduleDto(deps);
}

/** Deletes scheduled backups beyond the schedule's keep-last (their archives go with the blob collector). */
export async function pruneScheduled(tx: Tx): Promise<void> {
  const s = await repo.findSchedule(tx);
  const old = await repo.scheduledBeyond(tx, s?.keepLast ?? DEFAULT_KEEP);
  for (const b of old) {
    await repo.deleteBackup(tx, b.id);
    await audit(
      tx,
      { userId: null },
      {
        type: 'backup',
        action: 'backup.pruned',
        message: `Scheduled backup ${b.fileName ?? b.id} deleted (beyond the ${s?.keepLast ?? DEFAULT_KEEP} kept)`,
        targetType: 'backup',
        targetId: b.id,
      },
    );
  }
}
