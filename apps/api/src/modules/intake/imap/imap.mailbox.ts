import { PassThrough, type Readable } from 'node:stream';
import { finished } from 'node:stream/promises';
import type { ImapFlow } from 'imapflow';
import type { AttachmentStream, MessageText } from 'mailparser';
import { mailParser } from '../../../lib/load-later.js';
import { describeImapError, ImapFailure } from './imap.connection.js';
import {
  attachmentName,
  type MessageFilters,
  matchesFilters,
  messageName,
  oneLine,
  senderOf,
} from './imap.message.js';

// Reading one inbox over a signed-in connection: the messages after the last one looked at
// (by UID, per UIDVALIDITY), those whose sender and subject match the source's filters, each
// attachment (and the message itself as .eml when asked) handed to `take` under the key
// `<uidvalidity>:<uid>:<part>`, then the message marked seen (and with our keyword) or moved.
// A matching message with no attachment (and no .eml asked for) is told to `noAttachment`
// under its .eml key, so the source can record it (and a retry take the message itself).
//
// Nothing is taken twice: a part whose key was taken is skipped (the arrivals table holds the
// key unique), a message is marked or moved only after all its parts are taken, and the cursor
// moves past it only after that. A poll cut off anywhere (a crash, the server gone) reads the
// message again next time and takes only what is missing. A message carrying our keyword was
// finished earlier: it is only marked or moved again, never read, even when the cursor is lost
// or the server renumbers the mailbox (a new UIDVALIDITY).
// Over 400 lines on purpose: the poll, the take of one message, its finish (mark or move) and
// the take again of a retry keep those promises together, through one key format; apart, each
// would have to be checked against the others to see that nothing is taken twice. A message's
// names and filters are imap.message.ts.

/** The keyword set on every message Quire has taken (next to \Seen). */
export const TAKEN_KEYWORD = '$QuireTaken';

/** How many messages one poll reads at most; the next poll goes on from there. */
const MESSAGES_PER_POLL = 100;

/** Attachments of one message taken at most (a message of thousands of parts is not a document). */
const PARTS_PER_MESSAGE = 100;

/** Where a mailbox was read up to. */
export interface MailboxCursor {
  /** UIDVALIDITY, as a decimal string (it is a 32-bit unsigned number). */
  uidValidity: string;
  /** The highest UID looked at (taken, or left because it did not match). */
  lastUid: number;
}

export type AfterTake = { action: 'mark' } | { action: 'move'; folder: string };

/** Where a taken message went when it was moved: `key` is `<uidvalidity>:<uid>` where it was. */
export interface MovedMessage {
  key: string;
  folder: string;
  uidValidity: string;
  uid: number;
}

/** A message to read again for some of its parts (a retry of a failed arrival). */
interface MessageAt {
  mailbox: string;
  uidValidity: string;
  uid: number;
}

/** One part to take: its bytes are read from `content` (the type is the upload's to find). */
export interface MailPart {
  /** `<uidvalidity>:<uid>:<part>`: the IMAP part number, or `eml` for the message itself. */
  externalKey: string;
  /** A name fit to show: no path, no control or direction characters, at most 255 characters. */
  fileName: string;
  /** What the message said the type was (a hint only). */
  declaredType: string;
  content: Readable;
  sender: string | null;
  subject: string | null;
}

export interface PollMailboxOptions {
  mailbox: string;
  cursor: MailboxCursor | null;
  filters: MessageFilters;
  /** Take the whole message too, as `<subject>.eml`. */
  takeMessage: boolean;
  afterTake: AfterTake;
  /** Which of these keys were taken already. */
  takenKeys(keys: string[]): Promise<Set<string>>;
  /** Takes one part; reads `content` to its end. Throwing stops the poll (nothing is lost). */
  take(part: MailPart): Promise<void>;
  /**
   * A matching message had no attachment to take (and the message itself is not taken): its
   * .eml key (not taken yet) and name, to record it. Throwing stops the poll, as `take` does.
   */
  noAttachment?(message: Omit<MailPart, 'content' | 'declaredType'>): Promise<void>;
  /** Records how far the mailbox was read (after each message). */
  saveCursor(cursor: MailboxCursor): Promise<void>;
  /** Records where a moved message went (to take a failed part of it again later). */
  onMoved?(moved: MovedMessage): Promise<void>;
  signal?: AbortSignal;
  maxMessages?: number;
}

interface PollResult {
  /** Messages looked at. */
  messages: number;
  /** Messages that matched and were finished (taken, then marked or moved). */
  matched: number;
  /** Parts handed to `take`. */
  parts: number;
  /** Whether more messages wait (the poll stopped at its limit). */
  more: boolean;
}

/** Reads a stream to its end, keeping nothing (a part that is not taken). */
function drain(stream: Readable): Promise<void> {
  stream.resume();
  // Rejects when it is destroyed before its end (the connection cut off), never waits forever.
  return finished(stream);
}

/**
 * Reads the mailbox from the cursor on and takes what matches. Resolves with what it did;
 * rejects (ImapFailure, or what `take` threw) with the cursor saved up to the last message
 * that was finished.
 */
export async function pollMailbox(client: ImapFlow, options: PollMailboxOptions): Promise<PollResult> {
  const limit = options.maxMessages ?? MESSAGES_PER_POLL;
  const lock = await client.getMailboxLock(options.mailbox).catch((err) => {
    throw new ImapFailure(describeImapError(err));
  });
  try {
    const mailbox = client.mailbox;
    if (!mailbox) throw new ImapFailure('The mailbox could not be opened');
    const uidValidity = mailbox.uidValidity.toString();
    // A new UIDVALIDITY renumbers the mailbox: read it again from the start (our keyword tells
    // the messages finished before).
    let lastUid = options.cursor?.uidValidity === uidValidity ? options.cursor.lastUid : 0;
    const result: PollResult = { messages: 0, matched: 0, parts: 0, more: false };
    if (mailbox.exists === 0 || (mailbox.uidNext && mailbox.uidNext <= lastUid + 1)) {
      if (options.cursor?.uidValidity !== uidValidity) await options.saveCursor({ uidValidity, lastUid });
      return result;
    }
    // `n:*` names the last message even when its UID is below n: keep only the new ones.
    const found = (await client.search({ uid: `${lastUid + 1}:*` }, { uid: true })) || [];
    const uids = [...new Set(found)].filter((u) => u > lastUid).sort((a, b) => a - b);
    result.more = uids.length > limit;
    const batch = uids.slice(0, limit);
    if (batch.length === 0) return result;
    const listed = await client.fetchAll(
      batch.join(','),
      { uid: true, envelope: true, flags: true, size: true },
      { uid: true },
    );
    const byUid = new Map(listed.map((m) => [m.uid, m]));
    for (const uid of batch) {
      options.signal?.throwIfAborted();
      const message = byUid.get(uid);
      result.messages++;
      if (message) {
        const sender = senderOf(message);
        const subject = oneLine(message.envelope?.subject) || null;
        if (message.flags?.has(TAKEN_KEYWORD)) {
          await finish(client, { uid, uidValidity }, options, message.flags);
        } else if (matchesFilters({ sender, subject }, options.filters)) {
          result.parts += await takeMessage(
            client,
            { uid, keyPrefix: `${uidValidity}:${uid}`, sender, subject },
            options,
          );
          await finish(client, { uid, uidValidity }, options, message.flags ?? new Set());
          result.matched++;
        }
      }
      lastUid = uid;
      await options.saveCursor({ uidValidity, lastUid });
    }
    return result;
  } finally {
    lock.release();
  }
}

/**
 * Marks a finished message (\Seen and our keyword, or \Seen alone where the mailbox keeps no
 * keywords), then moves it when the source says so, making the folder when it is missing.
 * (imapflow answers a refused STORE or MOVE with false, not an error.)
 */
async function finish(
  client: ImapFlow,
  message: { uid: number; uidValidity: string },
  options: Pick<PollMailboxOptions, 'afterTake' | 'onMoved'>,
  flags: Set<string>,
) {
  const { uid } = message;
  const after = options.afterTake;
  const range = String(uid);
  try {
    if (!flags.has(TAKEN_KEYWORD) || !flags.has('\\Seen')) {
      const marked =
        (await client.messageFlagsAdd(range, ['\\Seen', TAKEN_KEYWORD], { uid: true })) ||
        (await client.messageFlagsAdd(range, ['\\Seen'], { uid: true }));
      if (!marked) throw new ImapFailure('The message could not be marked as read');
    }
    if (after.action === 'move') {
      let moved = await client.messageMove(range, after.folder, { uid: true });
      if (!moved) {
        await client.mailboxCreate(after.folder).catch(() => null);
        moved = await client.messageMove(range, after.folder, { uid: true });
      }
      if (!moved) throw new ImapFailure(`The message could not be moved to "${oneLine(after.folder, 100)}"`);
      const movedTo = moved.uidMap?.get(uid);
      if (movedTo && moved.uidValidity !== undefined)
        await options.onMoved?.({
          key: `${message.uidValidity}:${uid}`,
          folder: after.folder,
          uidValidity: moved.uidValidity.toString(),
          uid: movedTo,
        });
    }
  } catch (err) {
    throw err instanceof ImapFailure ? err : new ImapFailure(describeImapError(err));
  }
}

/**
 * Takes the parts of one message not taken yet: its attachments as MailParser finds them (an
 * image embedded in the HTML is not an attachment), then the message itself when asked.
 * Returns how many parts went to `take`.
 */
async function takeMessage(
  client: ImapFlow,
  message: {
    /** Where the message is read now. */
    uid: number;
    /** `<uidvalidity>:<uid>` where it arrived: its parts' keys start with this. */
    keyPrefix: string;
    sender: string | null;
    subject: string | null;
    /** Only these parts (a retry); all otherwise. */
    only?: Set<string>;
  },
  options: Pick<PollMailboxOptions, 'takenKeys' | 'take' | 'takeMessage' | 'noAttachment'>,
): Promise<number> {
  const { uid, keyPrefix, sender, subject, only } = message;
  const arrivedUid = Number(keyPrefix.split(':')[1]);
  const wanted = (partId: string) => !only || only.has(partId);
  const emlKey = `${keyPrefix}:eml`;
  let taken = 0;
  const downloaded = await client.download(String(uid), undefined, { uid: true }).catch((err) => {
    throw new ImapFailure(describeImapError(err));
  });
  if (!downloaded.content) return 0; // gone meanwhile (expunged by someone else)
  const parser = new (mailParser().MailParser)({
    skipHtmlToText: true,
    skipTextToHtml: true,
    skipTextLinks: true,
    skipImageLinks: true,
    checksumAlgo: false,
  });
  const source = downloaded.content;
  // The connection dying mid-message (the server gone) fails the part being taken and the
  // parse, rather than leaving them waiting for bytes that never come.
  let current: PassThrough | null = null;
  let part: Readable | null = null;
  let cut: Error | null = null;
  const cutOff = (err: Error) => {
    cut ??= err;
    current?.destroy(err);
    part?.destroy(err);
    parser.destroy(err);
  };
  const onClose = () => cutOff(new ImapFailure('The IMAP server closed the connection'));
  client.once('close', onClose);
  source.on('error', cutOff);
  source.on('close', () => {
    if (!source.readableEnded) onClose();
  });
  source.pipe(parser);
  let index = 0;
  /** Attachments offered (not an image of the HTML), taken or not. */
  let offered = 0;
  try {
    for await (const data of parser as AsyncIterable<AttachmentStream | MessageText>) {
      if (data.type !== 'attachment') continue;
      // Its error is told through `cut` and the streams that read it.
      data.content.on('error', () => {});
      part = data.content;
      if (cut) throw cut;
      index++;
      if (data.related !== true) offered++;
      const partId = data.partId ?? '1';
      const externalKey = `${keyPrefix}:${partId}`;
      const skip = data.related === true || index > PARTS_PER_MESSAGE || !wanted(partId);
      const done = skip ? new Set<string>() : await options.takenKeys([externalKey]);
      if (cut) throw cut;
      if (skip || done.has(externalKey)) {
        await drain(data.content);
      } else {
        // `take` reads a stream of its own: whatever it does to it (reads a part, destroys it),
        // the parser's is read to its end, so the parser goes on.
        const content = new PassThrough();
        // Whoever reads it hears of its error; this one keeps an unread one from ending the process.
        content.on('error', () => {});
        current = content;
        data.content.on('error', (err) => content.destroy(err));
        data.content.pipe(content);
        await options.take({
          externalKey,
          fileName: attachmentName(data.filename, arrivedUid, partId, data.contentType),
          declaredType: data.contentType,
          content,
          sender,
          subject,
        });
        taken++;
        current = null;
        if (cut) throw cut;
        if (!data.content.readableEnded) {
          data.content.unpipe(content);
          await drain(data.content);
        }
      }
      part = null;
      data.release?.();
    }
  } catch (err) {
    source.unpipe(parser);
    source.destroy();
    parser.destroy();
    throw err;
  } finally {
    client.off('close', onClose);
  }
  const eml = only ? only.has('eml') : options.takeMessage;
  if (
    !only &&
    !eml &&
    offered === 0 &&
    options.noAttachment &&
    !(await options.takenKeys([emlKey])).has(emlKey)
  )
    await options.noAttachment({
      externalKey: emlKey,
      fileName: messageName(subject, arrivedUid),
      sender,
      subject,
    });
  if (eml && !(await options.takenKeys([emlKey])).has(emlKey)) {
    const whole = await client.download(String(uid), undefined, { uid: true }).catch((err) => {
      throw new ImapFailure(describeImapError(err));
    });
    if (whole.content) {
      const content = whole.content;
      content.on('error', () => {});
      const closed = () => content.destroy(new ImapFailure('The IMAP server closed the connection'));
      client.once('close', closed);
      try {
        await options.take({
          externalKey: emlKey,
          fileName: messageName(subject, arrivedUid),
          declaredType: 'message/rfc822',
          content,
          sender,
          subject,
        });
      } finally {
        client.off('close', closed);
      }
      taken++;
    }
  }
  return taken;
}

/**
 * Takes again the parts of one message whose arrivals failed (their keys released): the
 * message is read where it is now (`at`, the mailbox or the folder it was moved to), and only
 * those parts go to `take`, under their original keys. Answers how many were taken; 0 when the
 * message is not there any more.
 */
export async function takeAgain(
  client: ImapFlow,
  at: MessageAt,
  keys: string[],
  options: Pick<PollMailboxOptions, 'takenKeys' | 'take'>,
): Promise<number> {
  const lock = await client.getMailboxLock(at.mailbox).catch((err) => {
    throw new ImapFailure(describeImapError(err));
  });
  try {
    if (client.mailbox === false || client.mailbox.uidValidity.toString() !== at.uidValidity) return 0;
    const message = await client.fetchOne(String(at.uid), { uid: true, envelope: true }, { uid: true });
    if (!message) return 0;
    const parsed = keys
      .map(parseKey)
      .filter((k): k is NonNullable<ReturnType<typeof parseKey>> => k !== null);
    if (parsed.length === 0) return 0;
    return await takeMessage(
      client,
      {
        uid: at.uid,
        keyPrefix: `${parsed[0]!.uidValidity}:${parsed[0]!.uid}`,
        sender: senderOf(message),
        subject: oneLine(message.envelope?.subject) || null,
        only: new Set(parsed.map((k) => k.part)),
      },
      { ...options, takeMessage: false },
    );
  } finally {
    lock.release();
  }
}

/** `<uidvalidity>:<uid>:<part>` read back; null when it is not one. */
export function parseKey(key: string): { uidValidity: string; uid: number; part: string } | null {
  const m = /^(\d{1,10}):(\d{1,10}):((?:\d{1,4}(?:\.\d{1,4}){0,9})|eml)$/.exec(key);
  return m ? { uidValidity: m[1]!, uid: Number(m[2]), part: m[3]! } : null;
}
