import type { FetchMessageObject, MessageAddressObject } from 'imapflow';
import { displayName } from '../../file/file.content.js';

// What imap.mailbox.ts reads of a message: its sender and subject as one safe line, whether
// they pass the source's filters, and the names its attachments and the message itself are
// filed under.

export interface MessageFilters {
  /** The sender's address or name contains this (case-insensitive); '' any. */
  sender: string;
  /** The subject contains this (case-insensitive); '' any. */
  subject: string;
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
