import { PassThrough, type Readable } from 'node:stream';
import type { FetchMessageObject, ImapFlow, MessageAddressObject } from 'imapflow';
import type { AttachmentStream, MessageText } from 'mailparser';
import { mailParser } from '../../../lib/load-later.js';
import { displayName } from '../../file/file.content.js';
import { describeImapError, ImapFailure } from './imap.connection.js';

// Reading one inbox over a signed-in connection: the messages after the last one looked at
// (by UID, per UIDVALIDITY), those whose sender and subject match the source's filters, each
// attachment (and the message itself as .eml when asked) handed to `take` under the key
// `<uidvalidity>:<uid>:<part>`, then the message marked seen (and with our keyword) or moved.
//
// Nothing is taken twice: a part whose key was taken is skipped (the arrivals table holds the
// key unique), a message is marked or moved only after all its parts are taken, and the cursor
// moves past it only after that. A poll cut off anywhere (a crash, the server gone) reads the
// message again next time and takes only what is missing. A message carrying our keyword was
// finished earlier: it is only marked or moved again, never read, even when the cursor is lost
// or the server renumbers the mailbox (a new UIDVALIDITY).

/** The keyword set on every message Quire has taken (next to \Seen). */
export const TAKEN_KEYWORD = '$QuireTaken';

/** How many messages one poll reads at most; the next poll goes on from there. */
export const MESSAGES_PER_POLL = 100;

/** Attachments of one message taken at most (a message of thousands of parts is not a document). */
export const PARTS_PER_MESSAGE = 100;

/** Where a mailbox was read up to. */
export interface MailboxCursor {
  /** UIDVALIDITY, as a decimal string (it is a 32-bit unsigned number). */
  uidValidity: string;
  /** The highest UID looked at (taken, or left because it did not match). */
  lastUid: number;
}

export interface MessageFilters {
  /** The sender's address or name contains this (case-insensitive); '' any. */
  sender: string;
  /** The subject contains this (case-insensitive); '' any. */
  subject: string;
}

export type AfterTake = { action: 'mark' } | { action: 'move'; folder: string };

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
  /** Records how far the mailbox was read (after each message). */
  saveCursor(cursor: MailboxCursor): Promise<void>;
  signal?: AbortSignal;
  maxMessages?: number;
}

export interface PollResult {
  /** Messages looked at. */
  messages: number;
  /** Messages that matched and were finished (taken, then marked or moved). */
  matched: number;
  /** Parts handed to `take`. */
  parts: number;
  /** Whether more messages wait (the poll stopped at its limit). */
  more: boolean;
}

const formatAddress = (a: MessageAddressObject | undefined) =>
  a ? (a.name ? `${a.name} <${a.address ?? ''}>` : (a.address ?? '')) : '';

/** The sender as one line (`Name <address>`), or null. */
export function senderOf(message: Pick<FetchMessageObject, 'envelope'>): string | null {
  const from = message.envelope?.from?.[0] ?? message.envelope?.sender?.[0];
  const text = oneLine(formatAddress(from));
  return text || null;
}

/** Text from a message header as one short line: no control or direction characters. */
export function oneLine(text: string | undefined, max = 500): string {
  return [...(text ?? '').replace(/[\p{Cc}\u2028\u2029\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]+/gu, ' ')]
    .slice(0, max)
    .join('')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Whether a message passes the source's sender and subject filters (case-insensitive). */
export function matchesFilters(
  message: { sender: string | null; subject: string | null },
  filters: MessageFilters,
): boolean {
  const has = (text: string | null, part: string) =>
    !part || (text ?? '').toLocaleLowerCase().includes(part.toLocaleLowerCase());
  return has(message.sender, filters.sender.trim()) && has(message.subject, filters.subject.trim());
}

const EXTENSIONS: Record<string, string> = {
  'application/pdf': '.pdf',
  'image/jpeg': '.jpg',
  'image/png': '.png',
  'image/gif': '.gif',
  'image/webp': '.webp',
  'image/tiff': '.tif',
  'text/plain': '.txt',
  'text/csv': '.csv',
  'message/rfc822': '.eml',
};

/** The name an attachment is filed under: its own, made safe, or one made from the message. */
export function attachmentName(raw: string | undefined, uid: number, partId: string, type: string): string {
  const fallback = `message-${uid}-part-${partId}${EXTENSIONS[type.toLowerCase()] ?? ''}`;
  return displayName(raw ?? '', fallback);
}

/** The name of the message itself as a file: its subject, made safe, with `.eml`. */
export function messageName(subject: string | null, uid: number): string {
  const base = displayName(subject ?? '', `message-${uid}`).replace(/\.eml$/i, '');
  return displayName(`${[...base].slice(0, 240).join('')}.eml`, `message-${uid}.eml`);
}

const partKey = (uidValidity: string, uid: number, part: string) => `${uidValidity}:${uid}:${part}`;

/** Reads a stream to its end, keeping nothing (a part that is not taken). */
function drain(stream: Readable): Promise<void> {
  return new Promise((resolve, reject) => {
    stream.on('end', resolve);
    stream.on('error', reject);
    stream.resume();
  });
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
          await finish(client, uid, options.afterTake, message.flags);
        } else if (matchesFilters({ sender, subject }, options.filters)) {
          result.parts += await takeMessage(client, { uid, uidValidity, sender, subject }, options);
          await finish(client, uid, options.afterTake, message.flags ?? new Set());
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
async function finish(client: ImapFlow, uid: number, after: AfterTake, flags: Set<string>) {
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
  message: { uid: number; uidValidity: string; sender: string | null; subject: string | null },
  options: PollMailboxOptions,
): Promise<number> {
  const { uid, uidValidity, sender, subject } = message;
  const emlKey = partKey(uidValidity, uid, 'eml');
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
  source.on('error', (err) => parser.destroy(err));
  source.pipe(parser);
  let index = 0;
  try {
    for await (const data of parser as AsyncIterable<AttachmentStream | MessageText>) {
      if (data.type !== 'attachment') continue;
      index++;
      const partId = data.partId ?? '1';
      const externalKey = partKey(uidValidity, uid, partId);
      const skip = data.related === true || index > PARTS_PER_MESSAGE;
      const done = skip ? new Set<string>() : await options.takenKeys([externalKey]);
      if (skip || done.has(externalKey)) {
        await drain(data.content);
      } else {
        // `take` reads a stream of its own: whatever it does to it (reads a part, destroys it),
        // the parser's is read to its end, so the parser goes on.
        const content = new PassThrough();
        data.content.on('error', (err) => content.destroy(err));
        data.content.pipe(content);
        await options.take({
          externalKey,
          fileName: attachmentName(data.filename, uid, partId, data.contentType),
          declaredType: data.contentType,
          content,
          sender,
          subject,
        });
        taken++;
        if (!data.content.readableEnded) {
          data.content.unpipe(content);
          await drain(data.content);
        }
      }
      data.release?.();
    }
  } catch (err) {
    source.unpipe(parser);
    source.destroy();
    parser.destroy();
    throw err;
  }
  if (options.takeMessage && !(await options.takenKeys([emlKey])).has(emlKey)) {
    const whole = await client.download(String(uid), undefined, { uid: true }).catch((err) => {
      throw new ImapFailure(describeImapError(err));
    });
    if (whole.content) {
      await options.take({
        externalKey: emlKey,
        fileName: messageName(subject, uid),
        declaredType: 'message/rfc822',
        content: whole.content,
        sender,
        subject,
      });
      taken++;
    }
  }
  return taken;
}
