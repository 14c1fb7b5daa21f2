import type { Tx } from '../../lib/deps.js';
import { cancelQueued, enqueueMany } from '../../lib/jobs/queue.js';

declare module '../../lib/jobs/queue.js' {
  interface JobPayloads {
    /** Delivers one message of the mail queue (`mail_jobs.id`). */
    'mail.send': { mail_id: number };
  }
}

export interface OutgoingMail {
  /** What the mail is for: password_reset, email_verification, test, notification, … */
  kind: string;
  to: string;
  subject: string;
  text: string;
  html?: string;
  createdById?: number | null;
  /** Attempts before it is failed for good (default 5). */
  maxAttempts?: number;
}

/** The key of a message's `mail.send` job (one queued or running job per message). */
export const mailJobKey = (mailId: number) => `mail:${mailId}`;

/**
 * Puts a message on the outgoing queue, inside the caller's transaction: the message row
 * (what admins see in the mail queue) and its `mail.send` job exist only if the change that
 * asked for the mail commits, and the workers are woken when it does.
 */
export async function enqueueMail(tx: Tx, mail: OutgoingMail) {
  const [queued] = await enqueueMails(tx, [mail]);
  return queued as { id: number };
}

/**
 * `enqueueMail` for many messages at once (the people one change tells): their rows in one
 * statement, then their `mail.send` jobs in another, each in the order given. Answers the
 * messages' ids in that order.
 */
export async function enqueueMails(tx: Tx, mails: readonly OutgoingMail[]): Promise<Array<{ id: number }>> {
  if (mails.length === 0) return [];
  const rows = await tx.mailJob.createManyAndReturn({
    data: mails.map((mail) => ({
      kind: mail.kind,
      to: mail.to,
      subject: mail.subject,
      text: mail.text,
      html: mail.html ?? null,
      createdById: mail.createdById ?? null,
      ...(mail.maxAttempts ? { maxAttempts: mail.maxAttempts } : {}),
    })),
    select: { id: true, maxAttempts: true },
  });
  rows.sort((a, b) => a.id - b.id);
  await enqueueMany(
    tx,
    rows.map((row) => ({
      kind: 'mail.send' as const,
      payload: { mail_id: row.id },
      key: mailJobKey(row.id),
      maxAttempts: row.maxAttempts,
    })),
  );
  return rows.map((row) => ({ id: row.id }));
}

/** Takes a message's waiting delivery off the job queue (the message is being deleted). */
export function cancelMailDelivery(tx: Tx, mailId: number) {
  return cancelQueued(tx, mailJobKey(mailId));
}
