import type { Tx } from '../../lib/deps.js';
import { nudgeMailWorkers } from './email.worker.js';

export interface OutgoingMail {
  /** What the mail is for: password_reset, email_verification, test, notification, … */
  kind: string;
  to: string;
  subject: string;
  text: string;
  html?: string;
  createdById?: number | null;
}

/**
 * Puts a message on the outgoing queue, inside the caller's transaction: the mail goes out
 * only if the change that asked for it commits. The mail worker delivers it (it is nudged to
 * look shortly, so the mail need not wait for the next poll).
 */
export function enqueueMail(tx: Tx, mail: OutgoingMail) {
  nudgeMailWorkers();
  return tx.mailJob.create({
    data: {
      kind: mail.kind,
      to: mail.to,
      subject: mail.subject,
      text: mail.text,
      html: mail.html ?? null,
      createdById: mail.createdById ?? null,
    },
    select: { id: true },
  });
}
