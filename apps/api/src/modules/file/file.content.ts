import type { TPreviewKind } from '@quire/contract';

// What a file is, from its bytes (never from its name), and the name people see.

/** How many leading bytes the type is read from (what file-type needs). */
export const SNIFF_BYTES = 4100;

const RASTER = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);

/**
 * file-type (about 15 MB loaded) waits for the first upload rather than the start; the module
 * is kept, since an import() per upload costs more than the detection (0.13 against 0.04 ms of
 * CPU for a text head, measured under tsx).
 */
let fileType: Promise<typeof import('file-type')> | undefined;

/** The type of content whose first bytes are `head`. */
export async function detectType(head: Buffer): Promise<string> {
  fileType ??= import('file-type');
  const { fileTypeFromBuffer } = await fileType;
  const found = await fileTypeFromBuffer(head);
  if (found) return found.mime;
  if (head.length === 0) return 'application/octet-stream';
  if (!looksLikeText(head)) return 'application/octet-stream';
  // Markup is sniffed so it is never shown as a page of this site (it downloads).
  const start = head
    .subarray(0, 512)
    .toString('utf8')
    .replace(/^\uFEFF/, '')
    .trimStart()
    .toLowerCase();
  if (start.startsWith('<svg') || (start.startsWith('<?xml') && start.includes('<svg')))
    return 'image/svg+xml';
  if (start.startsWith('<!doctype html') || start.startsWith('<html')) return 'text/html';
  if (start.startsWith('<?xml')) return 'application/xml';
  return 'text/plain';
}

/** UTF-8 (or ASCII) without NUL bytes or other binary control characters. */
function looksLikeText(head: Buffer): boolean {
  // A multi-byte character may be cut at the end of the head: ignore the last 3 bytes' errors.
  // A plain loop over the UTF-16 units: this runs for every upload.
  const text = new TextDecoder('utf-8', { fatal: false }).decode(head);
  for (let i = 0, end = text.length - 3; i < end; i++) {
    const code = text.charCodeAt(i);
    if (code === 0xfffd) return false;
    if (code < 0x20 && code !== 0x0a && code !== 0x0d && code !== 0x09 && code !== 0x0c) return false;
  }
  return true;
}

/** What the web client can show of a type; everything else downloads. */
export function previewKind(mimeType: string): TPreviewKind {
  if (mimeType === 'application/pdf') return 'pdf';
  if (RASTER.has(mimeType)) return 'image';
  if (mimeType === 'text/plain') return 'text';
  return 'none';
}

/**
 * A file name fit to show and to offer in a download: the last path segment of what the
 * client sent, without control or direction-override characters, trimmed to 255 characters
 * (keeping the extension). Never used as a disk path.
 */
export function displayName(raw: string, fallback = 'file'): string {
  const last = raw.split(/[/\\]/).pop() ?? '';
  const clean = [...last]
    .filter((c) => {
      const code = c.codePointAt(0) ?? 0;
      if (code < 0x20 || code === 0x7f || (code >= 0x80 && code < 0xa0)) return false;
      // bidi overrides and isolates, zero-width characters
      if ((code >= 0x202a && code <= 0x202e) || (code >= 0x2066 && code <= 0x2069)) return false;
      if (code === 0x200b || code === 0x200e || code === 0x200f || code === 0xfeff) return false;
      return true;
    })
    .join('')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^\.+$/, '');
  if (!clean) return fallback;
  const chars = [...clean];
  if (chars.length <= 255) return clean;
  const dot = clean.lastIndexOf('.');
  const ext = dot > 0 && clean.length - dot <= 16 ? clean.slice(dot) : '';
  return [...clean.slice(0, clean.length - ext.length)].slice(0, 255 - [...ext].length).join('') + ext;
}
