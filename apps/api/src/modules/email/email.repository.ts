import type { MailStatus, SmtpSecurity } from '@quire/db';
import type { Tx } from '../../lib/deps.js';
import { lockFor, lockRow } from '../../lib/locks.js';

export const SETTINGS_ID = 1;

/**
 * Locks the settings' row for a save (lib/locks.ts lockRow): saves sent at once run one after
 * the other, each deciding from what the last one left whether the stored password is kept
 * (it goes only to the server it was given for). Before the first save there is no row to
 * lock: first saves take turns on an advisory lock, each then locking the row the one before
 * it made (the next save to come waits for it). False when there is still no row.
 */
export async function lockSettings(tx: Tx): Promise<boolean> {
  if (await lockRow(tx, 'email_settings', SETTINGS_ID)) return true;
  await lockFor(tx, 'emailSettingsFirstSave');
  return lockRow(tx, 'email_settings', SETTINGS_ID);
}

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

// ---- delivery (email.jobs.ts) ----

/** Kinds of mail that carry a single-use link: their body is not kept once the job is done. */
const LINK_MAIL_KINDS = ['password_reset', 'email_verification'];
const REMOVED_BODY = '[Removed after delivery: this message carried a single-use link.]';

type DoneJob = { id: number; kind: string; html: string | null };

/** The body columns to write when a job is done (sent or failed for good). */
const scrubbed = (job: DoneJob) =>
  LINK_MAIL_KINDS.includes(job.kind)
    ? { text: REMOVED_BODY, ...(job.html === null ? {} : { html: REMOVED_BODY }) }
    : {};

/**
 * Marks a message as being delivered now and answers it; null when there is nothing to
 * deliver (deleted meanwhile, or already sent or failed).
 */
export async function startDelivery(db: Tx, id: number, at: Date) {
  const marked = await db.mailJob.updateMany({
    where: { id, status: { in: ['queued', 'sending'] } },
    data: { status: 'sending', lockedAt: at },
  });
  return marked.count ? db.mailJob.findUnique({ where: { id } }) : null;
}

export function markSent(db: Tx, job: DoneJob, r: { at: Date; attempts: number }) {
  return db.mailJob.updateMany({
    where: { id: job.id, status: 'sending' },
    data: {
      status: 'sent',
      sentAt: r.at,
      lockedAt: null,
      lastError: null,
      attempts: r.attempts,
      ...scrubbed(job),
    },
  });
}

/**
 * Mirrors a delivery attempt that did not succeed (or was deferred, or interrupted) on the
 * message: back in the queue at `runAt`, or failed for good (a link mail's body goes then).
 */
export async function recordOutcome(
  tx: Tx,
  id: number,
  outcome: { status: 'queued' | 'failed'; attempts: number; runAt: Date; error: string },
) {
  const job = await tx.mailJob.findUnique({ where: { id }, select: { id: true, kind: true, html: true } });
  if (!job) return;
  const failed = outcome.status === 'failed';
  await tx.mailJob.updateMany({
    where: { id, status: { in: ['queued', 'sending'] } },
    data: {
      status: outcome.status,
      attempts: outcome.attempts,
      lastError: outcome.error,
      lockedAt: null,
      ...(failed ? scrubbed(job) : { runAt: outcome.runAt }),
    },
  });
}
