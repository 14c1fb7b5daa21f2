import { z } from 'zod';
import { defaultBackoffMs, defineJob, JobDeferred } from '../../lib/jobs/definition.js';
import * as repo from './email.repository.js';
import { deliver, describeSmtpError } from './email.transport.js';

// Delivery of the mail queue on the job runner (decision 010). A message is a `mail_jobs`
// row (what the mail queue screen lists) with one `mail.send` job; the job's attempts,
// back-off and failure are mirrored on the row:
//
//   row queued --job claimed, delivery starts--> sending --ok--> sent (a link mail's body removed)
//                                                   |--error--> queued (attempts, last_error, run_at) or failed
//   no SMTP settings: the row stays queued, says why, and no attempt is spent (JobDeferred);
//   saving the settings makes waiting mail due at once (email.service saveSetup).

export const NOT_CONFIGURED_MESSAGE =
  'E-mail is not configured; the message waits until SMTP settings are saved';
/** How often mail waiting for SMTP settings looks again (saving settings also wakes it). */
const NOT_CONFIGURED_RECHECK_MS = 60_000;
/** SMTP connection, greeting and socket timeouts add up to a minute; an attempt never takes longer. */
const MAIL_TIMEOUT_MS = 2 * 60_000;

export const mailSendJob = defineJob({
  kind: 'mail.send',
  payload: z.object({ mail_id: z.number().int().positive() }),
  concurrency: 2,
  backoffMs: defaultBackoffMs,
  timeoutMs: MAIL_TIMEOUT_MS,
  describeError: describeSmtpError,
  async run(job, deps) {
    const settings = await repo.findSettings(deps.db);
    if (!settings) throw new JobDeferred(NOT_CONFIGURED_MESSAGE, NOT_CONFIGURED_RECHECK_MS);
    // Deleted meanwhile, or already sent by an attempt whose end was not recorded: nothing to do.
    const mail = await repo.startDelivery(deps.db, job.payload.mail_id, deps.now());
    if (!mail) return;
    await deliver(settings, deps.secretKey, mail, {
      allowPrivateHosts: deps.config.SMTP_ALLOW_PRIVATE_HOSTS,
    });
    await repo.markSent(deps.db, mail, { at: deps.now(), attempts: job.attempts });
  },
  async onFailure(tx, job, outcome) {
    await repo.recordOutcome(tx, job.payload.mail_id, outcome);
  },
});
