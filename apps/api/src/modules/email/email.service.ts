import type { TEmailSetup, TEmailSetupBody, TMailJob } from '@quire/contract';
import type { EmailSettings, MailJob, MailStatus } from '@quire/db';
import { type Actor, audit } from '../../lib/audit.js';
import type { Deps } from '../../lib/deps.js';
import { retryQueuedNow } from '../../lib/jobs/queue.js';
import { pageMeta, pageWindow } from '../../lib/paging.js';
import { isPrivateHost } from '../../lib/private-hosts.js';
import { encryptSecret } from '../../lib/secrets.js';
import {
  emailNotConfigured,
  mailJobNotFound,
  mailJobSending,
  privateSmtpHost,
  testMailFailed,
} from './email.errors.js';
import { cancelMailDelivery } from './email.queue.js';
import * as repo from './email.repository.js';
import { deliver, describeSmtpError } from './email.transport.js';

const DEFAULT_FROM_NAME = 'Quire';

function toSetupDto(s: EmailSettings): TEmailSetup {
  return {
    host: s.host,
    port: s.port,
    security: s.security,
    username: s.username,
    from_address: s.fromAddress,
    from_name: s.fromName,
    has_password: Boolean(s.passwordEncrypted),
    updated_at: s.updatedAt.toISOString(),
  };
}

function toJobDto(j: MailJob): TMailJob {
  return {
    id: j.id,
    kind: j.kind,
    to: j.to,
    subject: j.subject,
    status: j.status,
    attempts: j.attempts,
    max_attempts: j.maxAttempts,
    last_error: j.lastError,
    run_at: j.runAt.toISOString(),
    sent_at: j.sentAt?.toISOString() ?? null,
    created_at: j.createdAt.toISOString(),
  };
}

/** The SMTP settings without the password, or null when e-mail is not configured. */
export async function getSetup(deps: Deps): Promise<TEmailSetup | null> {
  const s = await repo.findSettings(deps.db);
  return s ? toSetupDto(s) : null;
}

/**
 * Saves the one settings row. An omitted password keeps the stored one, '' clears it, and a
 * stored password is dropped when the server it was for changes (host, port, security or
 * user) unless it is given again: it is never sent to a server it was not given for. A host
 * on this machine or a private network is refused unless the operator allows it.
 */
export async function saveSetup(deps: Deps, input: TEmailSetupBody, actor: Actor): Promise<TEmailSetup> {
  if (!deps.config.SMTP_ALLOW_PRIVATE_HOSTS && (await isPrivateHost(input.host))) throw privateSmtpHost();
  const username = input.username || null;
  const saved = await deps.db.$transaction(async (tx) => {
    await repo.lockSettings(tx);
    const stored = await repo.findSettings(tx);
    const serverChanged =
      stored !== null &&
      (stored.host.toLowerCase() !== input.host.toLowerCase() ||
        stored.port !== input.port ||
        stored.security !== input.security ||
        stored.username !== username);
    const passwordEncrypted =
      input.password === undefined
        ? serverChanged && stored?.passwordEncrypted
          ? null
          : undefined
        : input.password === ''
          ? null
          : encryptSecret(deps.secretKey, input.password);
    const data: repo.SettingsData = {
      host: input.host,
      port: input.port,
      security: input.security,
      username,
      passwordEncrypted,
      fromAddress: input.from_address,
      fromName: input.from_name || DEFAULT_FROM_NAME,
      updatedById: actor.userId,
    };
    const row = await repo.saveSettings(tx, data);
    // Mail waiting for settings (or backing off after a failure with the old ones) goes now.
    await retryQueuedNow(tx, 'mail.send');
    await audit(tx, actor, {
      type: 'email',
      action: 'email.settings_saved',
      message: `E-mail settings saved (${data.host}:${data.port}, ${data.security})`,
      targetType: 'email_settings',
      targetId: repo.SETTINGS_ID,
      details: {
        host: data.host,
        port: data.port,
        security: data.security,
        username: data.username,
        from_address: data.fromAddress,
        from_name: data.fromName,
        password:
          input.password === undefined
            ? passwordEncrypted === null
              ? 'dropped: the server changed'
              : 'kept'
            : passwordEncrypted === null
              ? 'cleared'
              : 'changed',
      },
    });
    return row;
  });
  return toSetupDto(saved);
}

export const TEST_SUBJECT = 'Quire test e-mail';

/**
 * Sends a test message now through the saved settings and records it in the queue (sent or
 * failed). A refusal by the SMTP server is a 502 carrying its error.
 */
export async function sendTest(deps: Deps, to: string, actor: Actor) {
  const settings = await repo.findSettings(deps.db);
  if (!settings) throw emailNotConfigured();
  const mail = {
    to,
    subject: TEST_SUBJECT,
    text: `This is a test message from Quire.\n\nIf you can read it, the e-mail settings (${settings.host}:${settings.port}) work.`,
  };
  let result: { ok: true; messageId: string | null; response: string | null } | { ok: false; error: string };
  try {
    result = {
      ok: true,
      ...(await deliver(settings, deps.secretKey, mail, {
        allowPrivateHosts: deps.config.SMTP_ALLOW_PRIVATE_HOSTS,
      })),
    };
  } catch (err) {
    result = { ok: false, error: describeSmtpError(err) };
  }
  const now = deps.now();
  const job = await deps.db.$transaction(async (tx) => {
    const created = await repo.createJob(tx, {
      kind: 'test',
      ...mail,
      status: result.ok ? 'sent' : 'failed',
      attempts: 1,
      lastError: result.ok ? null : result.error,
      runAt: now,
      sentAt: result.ok ? now : null,
      createdById: actor.userId,
    });
    await audit(tx, actor, {
      type: 'email',
      action: result.ok ? 'email.test_sent' : 'email.test_failed',
      message: result.ok ? `Test e-mail sent to ${to}` : `Test e-mail to ${to} failed: ${result.error}`,
      targetType: 'mail_job',
      targetId: created.id,
      details: {
        to,
        host: settings.host,
        port: settings.port,
        ...(result.ok ? {} : { error: result.error }),
      },
    });
    return created;
  });
  if (!result.ok) throw testMailFailed(result.error);
  return { job_id: job.id, message_id: result.messageId, response: result.response };
}

/** The outgoing queue, newest first. */
export async function listQueue(deps: Deps, q: { page: number; quantity: number; status?: MailStatus }) {
  const { items, total } = await repo.listJobs(deps.db, { ...pageWindow(q), status: q.status });
  return { items: items.map(toJobDto), ...pageMeta(q, total) };
}

/**
 * Deletes a message that is not being sent right now, with its waiting delivery job. (Its row
 * is locked meanwhile: a delivery starting now waits, then finds nothing to send.)
 */
export async function deleteJob(deps: Deps, id: number, actor: Actor): Promise<void> {
  await deps.db.$transaction(async (tx) => {
    const job = await repo.lockJob(tx, id);
    if (!job) throw mailJobNotFound();
    if (job.status === 'sending') throw mailJobSending();
    await repo.deleteJob(tx, id);
    await cancelMailDelivery(tx, id);
    await audit(tx, actor, {
      type: 'email',
      action: 'email.job_deleted',
      message: `Mail job ${id} (${job.status}) to ${job.to} deleted`,
      targetType: 'mail_job',
      targetId: id,
      details: { to: job.to, subject: job.subject, status: job.status },
    });
  });
}
