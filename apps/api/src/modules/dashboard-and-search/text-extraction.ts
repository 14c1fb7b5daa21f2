import { fileURLToPath } from 'node:url';
import { DOCX_MEDIA_TYPE, XLSX_MEDIA_TYPE } from '@quire/contract';
import { ChildTaskFailed, runInChild } from '../../lib/child-task.js';

// Text extraction for search, bounded: each file is read in a child process of its own
// (extract-child.mjs, run by lib/child-task.ts) with a heap limit, and killed when it takes
// longer than the time limit, so one hostile PDF (a page tree that never ends, a zip bomb in a .docx) costs one failed
// extraction, never the server. Libraries, all offline and pure JavaScript:
//   PDF   unpdf (Mozilla's pdf.js, serverless build: text layer only, no eval)
//   DOCX  mammoth (raw text)
//   XLSX  lib/spreadsheet.ts's eachSheetLine, the imports' bounded reader (every sheet, cell
//         text; formulas by their cached result)
//   HTML  htmlparser2 (text outside script/style, entities decoded)
//   text  UTF-8 (invalid bytes replaced)
// Images and PDF pages without a text layer (scans) are recognised by text-recognition.ts.

export type TextKind = 'pdf' | 'docx' | 'xlsx' | 'text' | 'html';

export interface ExtractLimits {
  /** Files larger than this are not read (status unsupported). */
  maxBytes: number;
  /** Text kept per version (the rest is dropped, `truncated`). */
  maxChars: number;
  timeoutMs: number;
  /** The worker's heap (old generation), in MiB. */
  memoryMb: number;
}

export const EXTRACT_LIMITS: ExtractLimits = {
  maxBytes: 50 * 1024 * 1024,
  maxChars: 1_000_000,
  timeoutMs: 60_000,
  memoryMb: 256,
};

/**
 * What kind of text a version holds, from its detected type and, for types detection cannot
 * name (plain text, HTML), from its first bytes; null when it is not read (images, archives…).
 */
export function textKindOf(mimeType: string, head: Buffer): TextKind | null {
  const mime = mimeType.toLowerCase().split(';')[0]?.trim() ?? '';
  if (mime === 'application/pdf' || head.subarray(0, 5).toString('latin1') === '%PDF-') return 'pdf';
  if (mime === DOCX_MEDIA_TYPE) return 'docx';
  if (mime === XLSX_MEDIA_TYPE) return 'xlsx';
  if (mime === 'text/html' || mime === 'application/xhtml+xml') return 'html';
  if (mime.startsWith('image/') || mime.startsWith('video/') || mime.startsWith('audio/')) return null;
  if (
    mime.startsWith('text/') ||
    mime === 'application/json' ||
    mime === 'application/octet-stream' ||
    mime === ''
  ) {
    if (head.includes(0)) return null;
    const start = head.subarray(0, 512).toString('utf8').trimStart().toLowerCase();
    if (start.startsWith('<!doctype html') || start.startsWith('<html')) return 'html';
    return 'text';
  }
  return null;
}

export class ExtractionFailed extends Error {
  override name = 'ExtractionFailed';
}

const CHILD = fileURLToPath(new URL('./extract-child.mjs', import.meta.url));

/**
 * Extracts the text of `bytes` in a bounded child process; ExtractionFailed says why it could
 * not. A PDF's text comes with each page's (`pages`).
 */
export async function extractText(
  bytes: Buffer,
  kind: TextKind,
  limits: ExtractLimits = EXTRACT_LIMITS,
): Promise<{ text: string; truncated: boolean; pages?: string[] }> {
  try {
    const out = await runInChild<{ text?: string; truncated?: boolean; pages?: string[] }>(
      CHILD,
      {
        bytes: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength),
        kind,
        maxChars: limits.maxChars,
      },
      limits,
    );
    return { text: out.text ?? '', truncated: out.truncated ?? false, pages: out.pages };
  } catch (err) {
    if (!(err instanceof ChildTaskFailed)) throw err;
    throw new ExtractionFailed(
      {
        timeout: `Reading the text took longer than ${Math.round(limits.timeoutMs / 1000)} s`,
        memory: `Reading the text needed more than ${limits.memoryMb} MiB`,
        error: `The file could not be read: ${err.detail}`,
        start: `The reader could not start: ${err.detail}`,
        stopped: `The reader stopped before it finished (${err.detail})`,
      }[err.reason],
    );
  }
}
