import type { TImapTestResult, ZImapTestBody } from '@quire/contract';
import type { z } from 'zod';
import { type Actor, audit } from '../../../lib/audit.js';
import type { Deps } from '../../../lib/deps.js';
import { badField } from '../../../lib/errors.js';
import { sourceNotFound } from '../intake.errors.js';
import * as intakeRepo from '../intake.repository.js';
import { takeArrival } from '../take-arrival.service.js';
import { closeImap, describeImapError, type ImapAccount, ImapFailure, openImap } from './imap.connection.js';
import { inboxTestFailed } from './imap.errors.js';
import {
  type AfterTake,
  type MailboxCursor,
  type MailPart,
  type MovedMessage,
  parseKey,
  pollMailbox,
  takeAgain,
} from './imap.mailbox.js';
import * as repo from './imap.repository.js';
import {
  accountOf,
  assertInboxHostAllowed,
  type ImapSourceSettings,
  imapSettings,
  sameServer,
} from './imap.settings.js';

// An e-mail inbox as an intake source: its settings read back, one poll (run by the intake.poll
// schedule, once across servers), a retry of a failed part, and the "Test connection" check.
// Each part taken goes through takeArrival under `<uidvalidity>:<uid>:<part>`, so it is
// uploaded, checked and audited like any upload, and never taken twice.

/** How often an inbox is looked at without news from an IDLE watcher. */
export const IMAP_POLL_MS = 60_000;

/** Why a matching message without attachments was not taken (it is recorded as failed). */
export const NO_ATTACHMENT =
  'The message has no attachment (and the source does not take messages themselves); Retry takes it as an .eml file';

/** Moved messages remembered per source (to take a failed part again from where it went). */
const MOVED_KEPT = 1000;

interface Checked {
  at: string;
  error: string | null;
}

interface ImapState {
  cursor: MailboxCursor | null;
  checked: Checked | null;
  wakeAt: string | null;
  retries: Array<{ key: string; at?: MovedMessage | null; queued_at?: string }>;
  moved: MovedMessage[];
}

function stateOf(settings: unknown): ImapState {
  const s = (settings ?? {}) as Record<string, unknown>;
  const cursor = s.imap_cursor as MailboxCursor | undefined;
  const checked = s.imap_checked as Checked | undefined;
  return {
    cursor:
      cursor && typeof cursor.uidValidity === 'string' && Number.isInteger(cursor.lastUid) ? cursor : null,
    checked: checked && typeof checked.at === 'string' ? checked : null,
    wakeAt: typeof s.imap_wake_at === 'string' ? s.imap_wake_at : null,
    retries: Array.isArray(s.imap_retries) ? (s.imap_retries as ImapState['retries']) : [],
    moved: Array.isArray(s.imap_moved) ? (s.imap_moved as MovedMessage[]) : [],
  };
}

const policyOf = (deps: Deps) => ({ allowPrivateHosts: deps.config.IMAP_ALLOW_PRIVATE_HOSTS });

/** Whether the inbox is due a look: its interval is over, a watcher saw mail, a retry waits. */
function due(deps: Deps, state: ImapState): boolean {
  if (!state.checked || state.retries.length > 0) return true;
  if (state.wakeAt && state.wakeAt > state.checked.at) return true;
  return deps.now().getTime() - Date.parse(state.checked.at) >= IMAP_POLL_MS;
}

/**
 * One look at an e-mail inbox source (SourceKind.poll). Between looks (IMAP_POLL_MS) it only
 * answers its last outcome, so the intake.poll schedule's beat does not sign in every few
 * seconds; an IDLE watcher's news or a retry makes the next beat look at once. Throws the
 * reason, in our own words, when the inbox cannot be read.
 */
export async function pollImapSource(
  deps: Deps,
  source: intakeRepo.SourceRow,
): Promise<{ taken: number; failed: number }> {
  const counts = { taken: 0, failed: 0 };
  const state = stateOf(source.settings);
  if (!due(deps, state)) {
    if (state.checked?.error) throw new ImapFailure(state.checked.error);
    return counts;
  }
  const settings = imapSettings(source.settings);
  const startedAt = deps.now().toISOString();
  const take = async (part: MailPart) => {
    const outcome = await takeArrival(deps, {
      sourceId: source.id,
      externalKey: part.externalKey,
      fileName: part.fileName,
      stream: part.content,
      sender: part.sender,
      subject: part.subject,
    });
    if (outcome.outcome === 'taken') counts.taken++;
    else if (outcome.outcome === 'failed') counts.failed++;
  };
  // A message with nothing to take leaves a trace: a failed arrival whose retry takes it as .eml.
  const noAttachment = async (message: Omit<MailPart, 'content' | 'declaredType'>) => {
    const outcome = await takeArrival(deps, {
      sourceId: source.id,
      externalKey: message.externalKey,
      fileName: message.fileName,
      sender: message.sender,
      subject: message.subject,
      refusal: NO_ATTACHMENT,
    });
    if (outcome.outcome === 'failed') counts.failed++;
  };
  const takenKeys = (keys: string[]) => intakeRepo.claimedKeys(deps.db, source.id, keys);
  let more = false;
  try {
    const client = await openImap(accountOf(deps, settings), policyOf(deps));
    try {
      // Failed parts asked for again: read where their message is now.
      for (const retry of state.retries) {
        const key = parseKey(retry.key);
        // The retry call releases the key just after queuing it: until then (a minute at most)
        // the part waits for the next look.
        const released = !(await takenKeys([retry.key])).has(retry.key);
        const queuedMs = retry.queued_at ? deps.now().getTime() - Date.parse(retry.queued_at) : Infinity;
        if (!released && queuedMs < 60_000) continue;
        if (key && released) {
          const at = retry.at ?? { folder: settings.mailbox, uidValidity: key.uidValidity, uid: key.uid };
          try {
            await takeAgain(
              client,
              { mailbox: at.folder, uidValidity: at.uidValidity, uid: at.uid },
              [retry.key],
              { takenKeys, take },
            );
          } catch (err) {
            // Its folder went meanwhile: the retry is dropped, the rest of the look goes on.
            // With the connection lost, the look fails and the retry waits for the next one.
            if (!(err instanceof ImapFailure) || !client.usable) throw err;
            deps.log.warn(
              { sourceId: source.id, key: retry.key, reason: err.message },
              'intake retry dropped',
            );
          }
        }
        await repo.removeFromState(deps.db, source.id, 'imap_retries', [retry.key]);
      }
      const afterTake: AfterTake =
        settings.after_take === 'move' && settings.move_to
          ? { action: 'move', folder: settings.move_to }
          : { action: 'mark' };
      const result = await pollMailbox(client, {
        mailbox: settings.mailbox,
        cursor: state.cursor,
        filters: { sender: settings.sender_filter, subject: settings.subject_filter },
        takeMessage: settings.take_message,
        afterTake,
        takenKeys,
        take,
        noAttachment,
        saveCursor: async (cursor) => {
          await repo.setState(deps.db, source.id, 'imap_cursor', cursor);
        },
        onMoved: async (moved) => {
          await repo.appendState(deps.db, source.id, 'imap_moved', [moved], MOVED_KEPT);
        },
      });
      more = result.more;
    } finally {
      await closeImap(client);
    }
  } catch (err) {
    const message = describeFailure(err);
    await repo.setState(deps.db, source.id, 'imap_checked', { at: startedAt, error: message });
    throw new ImapFailure(message);
  }
  await repo.setState(deps.db, source.id, 'imap_checked', { at: startedAt, error: null });
  // More mail than one look reads: the next beat goes on at once.
  if (more) await repo.setState(deps.db, source.id, 'imap_wake_at', deps.now().toISOString());
  return counts;
}

/** A failure of a poll as one line: the IMAP server's in our words, anything else generic. */
function describeFailure(err: unknown): string {
  if (err instanceof ImapFailure) return err.message;
  const e = err as { code?: unknown; authenticationFailed?: unknown; responseStatus?: unknown };
  if (e?.authenticationFailed || e?.responseStatus || typeof e?.code === 'string')
    return describeImapError(err);
  return 'The inbox could not be read; it is tried again at the next look';
}

/**
 * Asks for a failed part to be taken again (SourceKind.retry): checks now that its message can
 * still be read (in the mailbox, or in the folder it was moved to), then queues it for the
 * next look, which comes at once. Throws a sentence when it cannot be.
 */
export async function retryImapPart(
  deps: Deps,
  source: intakeRepo.SourceRow,
  externalKey: string,
): Promise<void> {
  const key = parseKey(externalKey);
  if (!key) throw new ImapFailure('This arrival does not name a part of a message');
  const settings = imapSettings(source.settings);
  const state = stateOf(source.settings);
  const moved = state.moved.find((m) => m.key === `${key.uidValidity}:${key.uid}`) ?? null;
  const at = moved ?? { folder: settings.mailbox, uidValidity: key.uidValidity, uid: key.uid };
  // The retry call waits for this inside its transaction: a short look.
  const client = await openImap(accountOf(deps, settings), { ...policyOf(deps), timeoutMs: 4000 });
  try {
    const lock = await client.getMailboxLock(at.folder).catch(() => null);
    if (!lock) throw new ImapFailure(`The folder "${at.folder}" is not on the IMAP server any more`);
    try {
      const here =
        client.mailbox !== false &&
        client.mailbox.uidValidity.toString() === at.uidValidity &&
        (await client.fetchOne(String(at.uid), { uid: true }, { uid: true }));
      if (!here) throw new ImapFailure('The message is not in the mailbox any more');
    } finally {
      lock.release();
    }
  } finally {
    await closeImap(client);
  }
  await repo.appendState(
    deps.db,
    source.id,
    'imap_retries',
    [{ key: externalKey, at: moved, queued_at: deps.now().toISOString() }],
    500,
  );
}

/**
 * "Test connection": signs in with these settings (the password given, or the stored one) and
 * opens the mailbox. Answers what it found; throws ImapFailure with the reason.
 */
export async function testImapConnection(
  deps: Deps,
  settings: ImapSourceSettings,
  password?: string,
): Promise<{ mailbox: string; messages: number; idle: boolean }> {
  const client = await openImap(accountOf(deps, settings, password), policyOf(deps));
  try {
    const lock = await client.getMailboxLock(settings.mailbox).catch((err) => {
      throw new ImapFailure(describeImapError(err));
    });
    try {
      const mailbox = client.mailbox;
      return {
        mailbox: mailbox ? mailbox.path : settings.mailbox,
        messages: mailbox ? mailbox.exists : 0,
        idle: client.capabilities.has('IDLE'),
      };
    } finally {
      lock.release();
    }
  } finally {
    await closeImap(client);
  }
}

/** An IDLE watcher saw new mail in a source's mailbox: its next look comes at once. */
export async function wakeImapSource(deps: Deps, sourceId: number): Promise<void> {
  await repo.setState(deps.db, sourceId, 'imap_wake_at', deps.now().toISOString());
}

/**
 * "Test connection" (test_intake_inbox): signs in with the settings on the form and opens the
 * mailbox; nothing is saved. Without a password, the stored one of `source_id` is used, and
 * only for the server it was given for. Audited either way; a server that refuses is a 502
 * saying why in our words.
 */
export async function testInbox(
  deps: Deps,
  actor: Actor,
  body: z.infer<typeof ZImapTestBody>,
): Promise<TImapTestResult> {
  await assertInboxHostAllowed(deps, body.settings.host);
  const { password, ...fields } = body.settings;
  const settings: ImapSourceSettings = { ...imapSettings(fields), password_encrypted: null };
  let account: ImapAccount | null = null;
  if (password !== undefined) account = accountOf(deps, settings, password);
  else if (body.source_id !== undefined) {
    const source = await intakeRepo.findSource(deps.db, body.source_id);
    if (source?.kind !== 'imap') throw sourceNotFound();
    const stored = imapSettings(source.settings);
    if (!sameServer(stored, settings))
      throw badField(
        'body.settings.password',
        'Type the password: the stored one is only sent to the server and user it was given for',
      );
    account = accountOf(deps, { ...settings, password_encrypted: stored.password_encrypted });
  } else account = accountOf(deps, settings, '');
  const where = `${settings.user}@${settings.host}:${settings.port}`;
  let result: TImapTestResult | null = null;
  let failure: string | null = null;
  try {
    result = await testImapConnection(deps, settings, account.password);
  } catch (err) {
    failure = describeImapError(err);
  }
  await deps.db.$transaction(async (tx) => {
    await audit(tx, actor, {
      type: 'intake',
      action: failure ? 'intake.inbox_test_failed' : 'intake.inbox_tested',
      message: failure ? `Test of the inbox ${where} failed: ${failure}` : `Tested the inbox ${where}`,
      targetType: 'intake_source',
      ...(body.source_id === undefined ? {} : { targetId: body.source_id }),
      details: {
        host: settings.host,
        port: settings.port,
        tls: settings.tls,
        user: settings.user,
        mailbox: settings.mailbox,
        ...(failure ? { error: failure } : { messages: result?.messages, idle: result?.idle }),
      },
    });
  });
  if (failure || !result) throw inboxTestFailed(failure ?? 'no answer');
  return result;
}
