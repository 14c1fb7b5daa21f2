import { fileURLToPath } from 'node:url';
import { ChildTaskFailed, runInChild } from '../../lib/child-task.js';
import type { OcrLanguage } from '../../lib/ocr-languages.js';
import { ExtractionFailed } from './text-extraction.js';

// Text recognition (OCR) of images and of PDF pages without a text layer, bounded like the
// text extraction: ocr-child.mjs runs in a child process of its own with a heap, a resident
// memory and a time limit (lib/child-task.ts). MuPDF renders the pages, Tesseract reads them,
// both WebAssembly from npm; the trained data comes from @tesseract.js-data (lib/ocr-languages.ts).

/** The image types text recognition reads. */
const OCR_IMAGES = new Set(['image/png', 'image/jpeg', 'image/tiff', 'image/webp']);

export const isRecognisableImage = (mimeType: string) =>
  OCR_IMAGES.has(mimeType.toLowerCase().split(';')[0]?.trim() ?? '');

export interface OcrLimits {
  /** Resolution PDF pages are rendered at. */
  dpi: number;
  /** Largest image (width x height) read, declared in its header; a page is rendered smaller. */
  maxPixels: number;
  /** Time for starting the engine, and then for each page. */
  baseTimeoutMs: number;
  pageTimeoutMs: number;
  /** The child's heap and its whole resident memory (WebAssembly included), in MiB. */
  memoryMb: number;
  rssMb: number;
}

export const OCR_LIMITS: OcrLimits = {
  dpi: 300,
  maxPixels: 40_000_000,
  baseTimeoutMs: 60_000,
  pageTimeoutMs: 60_000,
  memoryMb: 512,
  rssMb: 1024,
};

/** A recognised word: x, y, width, height in ten-thousandths of its page (top left 0, 0), and the word. */
export type WordBox = [number, number, number, number, string];

export interface RecognisedPage {
  /** 0-based. */
  page: number;
  text: string;
  /** Where Tesseract found each word (kept for marking a search's words on the page). */
  words: WordBox[];
}

const CHILD = fileURLToPath(new URL('./ocr-child.mjs', import.meta.url));

/**
 * Recognises the text of an image (`kind` image, one page) or of pages of a PDF (0-based
 * `pages`), in a bounded child process; ExtractionFailed says why it could not.
 */
export async function recognizeText(
  bytes: Buffer,
  input: { kind: 'image' | 'pdf'; mimeType: string; pages: number[]; languages: OcrLanguage[] },
  limits: OcrLimits = OCR_LIMITS,
  onPeakRss?: (mb: number) => void,
): Promise<RecognisedPage[]> {
  const count = input.kind === 'image' ? 1 : input.pages.length;
  const timeoutMs = limits.baseTimeoutMs + count * limits.pageTimeoutMs;
  try {
    const out = await runInChild<{ pages: RecognisedPage[] }>(
      CHILD,
      {
        bytes: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength),
        kind: input.kind,
        mime: input.mimeType.toLowerCase().split(';')[0]?.trim(),
        pages: input.pages,
        languages: input.languages,
        dpi: limits.dpi,
        maxPixels: limits.maxPixels,
      },
      { timeoutMs, memoryMb: limits.memoryMb, rssMb: limits.rssMb, onPeakRss },
    );
    return out.pages;
  } catch (err) {
    if (!(err instanceof ChildTaskFailed)) throw err;
    throw new ExtractionFailed(
      {
        timeout: `Text recognition took longer than ${Math.round(timeoutMs / 1000)} s`,
        memory: `Text recognition needed more than ${limits.rssMb} MiB`,
        error: `Text recognition could not read the file: ${err.detail}`,
        start: `Text recognition could not start: ${err.detail}`,
        stopped: `Text recognition stopped before it finished (${err.detail})`,
      }[err.reason],
    );
  }
}
