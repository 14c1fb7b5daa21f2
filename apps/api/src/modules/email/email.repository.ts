import type { MailStatus, SmtpSecurity } from '@quire/db';
import type { Tx } from '../../lib/deps.js';

export const SETTINGS_ID = 1;

export function findSettings(db: Tx) {
  return db.emailSettings.findUnique({ where: { id: SETTINGS_ID } });
}

export interface SettingsData {
  host: string;
  port: number;
  security: SmtpSecurity;
  username: string | null;
  /** undefined: keep the stored one. */
  passwordEncrypted?: string | null;
  fromAddress: string;
  fromName: string;
  updatedById: number | null;
}

export function saveSettings(tx: Tx, data: SettingsData) {
  const { passwordEncrypted, ...rest } = data;
  return tx.emailSettings.upsert({
    where: { id: SETTINGS_ID },
    create: { id: SETTINGS_ID, ...rest, passwordEncrypted: passwordEncrypted ?? null },
    update: { ...rest, ...(passwordEncrypted === undefined ? {} : { passwordEncrypted }) },
  });
}

export function createJob(
  tx: Tx,
  data: {
    kind: string;
    to: string;
    subject: string;
    text: string;
    status: MailStatus;
    attempts: number;
    lastError: string | null;
    runAt: Date;
    sentAt: Date | null;
    createdById: number | null;
  },
) {
  return tx.mailJob.create({ data, select: { id: true } });
}

export async function listJobs(db: Tx, q: { skip: number; take: number; status?: MailStatus }) {
  const where = q.status ? { status: q.status } : {};
  const [items, total] = await Promise.all([
    db.mailJob.findMany({
      where,
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      skip: q.skip,
      take: q.take,
    }),
    db.mailJob.count({ where }),
  ]);
  return { items, total };
}

/** The job's status, with its row locked until the transaction ends (the worker skips it). */
export async function lockJob(tx: Tx, id: number) {
  const rows = await tx.$queryRaw<Array<{ id: number; status: MailStatus; to: string; subject: string }>>`
    SELECT id, status::text AS status, "to", subject FROM mail_jobs WHERE id = ${id} FOR UPDATE`;
  return rows[0] ?? null;
}

export function deleteJob(tx: Tx, id: number) {
  return tx.mailJob.delete({ where: { id } });
}

// ---- the worker's queries ----

/** `timestamp(3)` columns hold UTC; compare against an explicit UTC value. */
const utc = (d: Date) => d.toISOString();

/**
 * Claims up to `limit` due jobs: locks them with SKIP LOCKED (another server's claim skips
 * them) and marks them sending, in one transaction. Returns the claimed rows.
 */
export async function claimDueJobs(tx: Tx, now: Date, limit: number) {
  const rows = await tx.$queryRaw<Array<{ id: number }>>`
    SELECT id FROM mail_jobs
    WHERE status = 'queued' AND run_at <= (${utc(now)}::timestamptz AT TIME ZONE 'UTC')
    ORDER BY run_at, id
    LIMIT ${limit}
    FOR UPDATE SKIP LOCKED`;
  const ids = rows.map((r) => r.id);
  if (ids.length === 0) return [];
  await tx.mailJob.updateMany({ where: { id: { in: ids } }, data: { status: 'sending', lockedAt: now } });
  return tx.mailJob.findMany({ where: { id: { in: ids } }, orderBy: [{ runAt: 'asc' }, { id: 'asc' }] });
}

/** Kinds of mail that carry a single-use link: their body is not kept once the job is done. */
export const LINK_MAIL_KINDS = ['password_reset', 'email_verification'];
export const REMOVED_BODY = '[Removed after delivery: this message carried a single-use link.]';

type DoneJob = { id: number; kind: string; html: string | null };

/** The body columns to write when a job is done (sent or failed for good). */
const scrubbed = (job: DoneJob) =>
  LINK_MAIL_KINDS.includes(job.kind)
    ? { text: REMOVED_BODY, ...(job.html === null ? {} : { html: REMOVED_BODY }) }
    : {};

/**
 * Marks a claimed job as being delivered right now (the stuck-job recovery measures from
 * here). 0 rows when the claim was lost meanwhile (another server recovered the job): skip it.
 */
export function markDelivering(db: Tx, job: { id: number; lockedAt: Date | null }, at: Date) {
  return db.mailJob.updateMany({
    where: { id: job.id, status: 'sending', lockedAt: job.lockedAt },
    data: { lockedAt: at },
  });
}

export function markSent(db: Tx, job: DoneJob, at: Date) {
  return db.mailJob.updateMany({
    where: { id: job.id, status: 'sending' },
    data: {
      status: 'sent',
      sentAt: at,
      lockedAt: null,
      lastError: null,
      attempts: { increment: 1 },
      ...scrubbed(job),
    },
  });
}

/** A failed attempt: back to the queue at `runAt`, or failed for good (a link mail's body goes). */
export function markAttemptFailed(
  db: Tx,
  job: DoneJob,
  r: { attempts: number; lastError: string; giveUp: boolean; runAt: Date },
) {
  return db.mailJob.updateMany({
    where: { id: job.id, status: 'sending' },
    data: {
      status: r.giveUp ? 'failed' : 'queued',
      attempts: r.attempts,
      lastError: r.lastError,
      runAt: r.runAt,
      lockedAt: null,
      ...(r.giveUp ? scrubbed(job) : {}),
    },
  });
}

/**
 * Jobs left in `sending` since before `cutoff` (their server died): the interrupted attempt
 * counts, and they go back to the queue (or fail when it was the last one).
 */
export function recoverStuckJobs(db: Tx, cutoff: Date, now: Date, message: string) {
  return db.$executeRaw`
    UPDATE mail_jobs SET
      status = (CASE WHEN attempts + 1 >= max_attempts THEN 'failed' ELSE 'queued' END)::"MailStatus",
      text = (CASE WHEN attempts + 1 >= max_attempts AND kind = ANY(${LINK_MAIL_KINDS})
               THEN ${REMOVED_BODY} ELSE text END),
      html = (CASE WHEN attempts + 1 >= max_attempts AND kind = ANY(${LINK_MAIL_KINDS})
               AND html IS NOT NULL THEN ${REMOVED_BODY} ELSE html END),
      attempts = attempts + 1,
      locked_at = NULL,
      last_error = ${message},
      run_at = (${utc(now)}::timestamptz AT TIME ZONE 'UTC')
    WHERE status = 'sending' AND locked_at < (${utc(cutoff)}::timestamptz AT TIME ZONE 'UTC')`;
}

/** Without SMTP settings, due jobs wait (no attempt is spent); their last_error says why. */
export function noteNotConfigured(db: Tx, now: Date, message: string) {
  return db.mailJob.updateMany({
    where: {
      status: 'queued',
      runAt: { lte: now },
      OR: [{ lastError: null }, { lastError: { not: message } }],
    },
    data: { lastError: message },
  });
}
