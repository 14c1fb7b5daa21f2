import type { TTextStatus } from '@quire/contract';
import { type Actor, audit } from '../../lib/audit.js';
import { recordBlob } from '../../lib/blob-rows.js';
import type { Deps } from '../../lib/deps.js';
import { notFound } from '../../lib/errors.js';
import { describeError } from '../../lib/jobs/definition.js';
import { enqueue } from '../../lib/jobs/queue.js';
import { ocrLanguages } from '../../lib/ocr-languages.js';
import { notRecognisable, recognitionOff } from './dashboard-and-search.errors.js';
import * as repo from './dashboard-and-search.repository.js';
import { toSummary } from './search.service.js';
import {
  EXTRACT_LIMITS,
  ExtractionFailed,
  type ExtractLimits,
  extractText,
  textKindOf,
} from './text-extraction.js';
import { isRecognisableImage, type OcrLimits, recognizeText, type WordBox } from './text-recognition.js';

// Text for search: on a new version (uploaded, version_added, checked_in events of the files
// area), the version's text is read in a bounded child process (text-extraction.ts) and
// stored in version_texts with its vector; a trigger folds it into files.search_vector. A
// version whose text cannot be read says why (status failed/unsupported, error), and the file
// stays findable by its name, metadata, tags and comments. Images and PDF pages without a
// text layer are recognised (OCR, text-recognition.ts) unless OCR_LANGUAGES is off; a PDF's
// text keeps where each page starts, so a match names its page; the word boxes recognition
// found are kept beside it (derived content, text-marks.service.ts marks a search's words).

const UNSUPPORTED_TYPE = 'Files of this type are not searched by their content';
const OCR_OFF =
  'Text recognition is off (OCR_LANGUAGES=off): images and scanned pages are found by their name and metadata only';
const NO_TEXT_LAYER = 'This PDF has no text layer (a scan?): it is found by its name and metadata only';

async function readBlob(deps: Deps, blobId: string, max: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of await deps.blobs.read(blobId)) {
    const b = chunk as Buffer;
    size += b.length;
    if (size > max) throw new ExtractionFailed('too large');
    chunks.push(b);
  }
  return Buffer.concat(chunks);
}

/** Characters as PostgreSQL counts them (code points), so page starts match strpos. */
const codePoints = (s: string) => s.length - (s.match(/[\uD800-\uDBFF]/g)?.length ?? 0);

/** Pages joined by line breaks, with where each starts; cut at `maxChars`. */
export function joinPages(pages: string[], maxChars: number) {
  const pageStarts: number[] = [];
  let at = 0;
  for (const page of pages) {
    pageStarts.push(at);
    at += codePoints(page) + 1;
  }
  const text = pages.join('\n');
  return text.length > maxChars
    ? { text: text.slice(0, maxChars), truncated: true, pageStarts: pageStarts.filter((s) => s < maxChars) }
    : { text, truncated: false, pageStarts };
}

interface Outcome {
  status: 'done' | 'failed' | 'unsupported';
  text: string | null;
  truncated: boolean;
  error: string | null;
  pageStarts: number[];
  ocr: { pages: number; languages: string } | null;
  /** Recognised pages' word boxes (0-based pages); empty when nothing was recognised. */
  words: Array<{ page: number; words: WordBox[] }>;
}

const wordsOf = (pages: Array<{ page: number; words: WordBox[] }>) =>
  pages.map((p) => ({ page: p.page, words: p.words }));

const notRead = (status: 'failed' | 'unsupported', error: string): Outcome => ({
  status,
  text: null,
  truncated: false,
  error,
  pageStarts: [],
  ocr: null,
  words: [],
});

export interface ReadOptions {
  limits?: ExtractLimits;
  ocrLimits?: OcrLimits;
  /** Read again even when a text is stored (text recognition asked for again). */
  force?: boolean;
}

/** The text of a version's content: read from it, recognised from its images, or why not. */
async function readContent(
  deps: Deps,
  version: { mimeType: string; size: bigint; blobId: string },
  options: ReadOptions,
): Promise<Outcome> {
  const limits = options.limits ?? EXTRACT_LIMITS;
  if (Number(version.size) > limits.maxBytes)
    return notRead(
      'unsupported',
      `Files over ${Math.round(limits.maxBytes / 1024 / 1024)} MB are not searched by their content`,
    );
  const languages = ocrLanguages(deps.config.OCR_LANGUAGES);
  const ocr = { pages: 0, languages: languages.map((l) => l.code).join('+') };
  const bytes = await readBlob(deps, version.blobId, limits.maxBytes);
  const kind = textKindOf(version.mimeType, bytes.subarray(0, 1024));
  try {
    if (!kind) {
      if (!isRecognisableImage(version.mimeType)) return notRead('unsupported', UNSUPPORTED_TYPE);
      if (!languages.length) return notRead('unsupported', OCR_OFF);
      const pages = await recognizeText(
        bytes,
        { kind: 'image', mimeType: version.mimeType, pages: [0], languages },
        options.ocrLimits,
      );
      const read = joinPages(
        pages.map((p) => p.text),
        limits.maxChars,
      );
      return {
        status: 'done',
        ...read,
        pageStarts: [],
        error: null,
        ocr: { ...ocr, pages: 1 },
        words: wordsOf(pages),
      };
    }
    const extracted = await extractText(bytes, kind, limits);
    if (!extracted.pages)
      return { status: 'done', ...extracted, error: null, pageStarts: [], ocr: null, words: [] };
    // A PDF: pages without a text layer are recognised from their image.
    const pages = [...extracted.pages];
    const blank = pages.flatMap((p, i) => (p.trim() === '' ? [i] : [])).slice(0, deps.config.OCR_MAX_PAGES);
    let ocrFailure: string | null = null;
    let words: Outcome['words'] = [];
    if (blank.length && languages.length) {
      try {
        const recognised = await recognizeText(
          bytes,
          { kind: 'pdf', mimeType: version.mimeType, pages: blank, languages },
          options.ocrLimits,
        );
        for (const r of recognised) pages[r.page] = r.text;
        words = wordsOf(recognised);
        ocr.pages = blank.length;
      } catch (err) {
        if (!(err instanceof ExtractionFailed)) throw err;
        ocrFailure = describeError(err);
      }
    }
    if (pages.every((p) => p.trim() === '')) {
      if (ocrFailure) return notRead('failed', ocrFailure);
      if (!ocr.pages) return notRead('unsupported', languages.length ? NO_TEXT_LAYER : OCR_OFF);
    }
    const read = joinPages(pages, limits.maxChars);
    return {
      status: 'done',
      ...read,
      truncated: read.truncated || extracted.truncated,
      error: ocrFailure,
      ocr: ocr.pages ? ocr : null,
      words,
    };
  } catch (err) {
    if (!(err instanceof ExtractionFailed)) throw err;
    return notRead('failed', describeError(err));
  }
}

/**
 * Reads and stores the text of one version; runs at least once per event (a repeat finds the
 * version done and stops, unless `force`). Outcomes are written with their audit event in one
 * transaction.
 */
export async function extractVersion(
  deps: Deps,
  versionId: number,
  options: ReadOptions = {},
): Promise<void> {
  const version = await repo.findVersion(deps.db, versionId);
  if (!version) return; // purged meanwhile
  if (!options.force && version.text && version.text.status !== 'pending') return; // done by an earlier run
  await repo.markPending(deps.db, versionId);

  const outcome = await readContent(deps, version, options);
  const recognised = outcome.ocr ? ` (recognised on ${outcome.ocr.pages} page(s))` : '';
  // The word boxes as content of their own (a blob), pointed at with the text.
  const boxes = outcome.words.length
    ? await deps.blobs.put(Buffer.from(JSON.stringify({ pages: outcome.words })))
    : null;

  await deps.db.$transaction(async (tx) => {
    await repo.storeText(tx, versionId, { ...outcome, at: deps.now() });
    if (boxes) await recordBlob(tx, { id: boxes.id, size: boxes.size, mimeType: repo.WORD_BOXES_TYPE });
    await repo.storeWordBoxes(tx, versionId, boxes?.id ?? null);
    await audit(
      tx,
      { userId: null },
      {
        type: 'file',
        action:
          outcome.status === 'done'
            ? 'file.text_extracted'
            : outcome.status === 'failed'
              ? 'file.text_extraction_failed'
              : 'file.text_not_extractable',
        message:
          outcome.status === 'done'
            ? `Read ${outcome.text?.length ?? 0} characters of text from "${version.originalName}" for search${recognised}${outcome.truncated ? ' (cut at the limit)' : ''}`
            : `The text of "${version.originalName}" was not read for search: ${outcome.error}`,
        targetType: 'file',
        targetId: version.fileId,
        details: { version_id: versionId, status: outcome.status, ocr_pages: outcome.ocr?.pages ?? null },
      },
    );
  });
}

/**
 * Asks for text recognition of a file's current version again (an editor, after a failure or
 * a language added): its text goes back to pending and a search.recognize job reads it.
 */
export async function requestRecognition(deps: Deps, actor: Actor, fileId: number): Promise<TTextStatus> {
  if (!ocrLanguages(deps.config.OCR_LANGUAGES).length) throw recognitionOff();
  const file = await repo.textStatusOfFile(deps.db, fileId);
  const version = file?.currentVersion;
  if (!version) throw notFound('File');
  if (!isRecognisableImage(version.mimeType) && version.mimeType !== 'application/pdf')
    throw notRecognisable(version.mimeType);
  await deps.db.$transaction(async (tx) => {
    await repo.resetText(tx, version.id);
    await enqueue(tx, 'search.recognize', { version_id: version.id }, { key: `recognize:${version.id}` });
    await audit(tx, actor, {
      type: 'file',
      action: 'file.text_recognition_requested',
      message: `Asked for the text of version ${version.number} to be recognised again`,
      targetType: 'file',
      targetId: fileId,
      details: { version_id: version.id },
    });
  });
  return textStatus(deps, fileId);
}

export async function textStatus(deps: Deps, fileId: number): Promise<TTextStatus> {
  const [summary, file] = await Promise.all([
    repo.fileSummary(deps.db, fileId),
    repo.textStatusOfFile(deps.db, fileId),
  ]);
  if (!summary) throw notFound('File');
  const version = file?.currentVersion ?? null;
  const text = version?.text ?? null;
  return {
    file: toSummary(summary),
    version_id: version?.id ?? null,
    version_number: version?.number ?? null,
    status: text?.status ?? null,
    error: text?.error ?? null,
    truncated: text?.truncated ?? false,
    extracted_at: text?.extractedAt ? text.extractedAt.toISOString() : null,
    recognition:
      text?.ocrAt && text.ocrPages !== null
        ? { at: text.ocrAt.toISOString(), pages: text.ocrPages, languages: text.ocrLanguages ?? '' }
        : null,
    recognisable: version
      ? isRecognisableImage(version.mimeType) || version.mimeType === 'application/pdf'
      : false,
  };
}

/** Rebuilds every vector in the company's search language (after it changed), in batches. */
export async function reindexAll(deps: Deps, signal?: AbortSignal): Promise<number> {
  let after = 0;
  let batches = 0;
  for (;;) {
    if (signal?.aborted) throw new Error('stopped');
    const last = await deps.db.$transaction((tx) => repo.reindexBatch(tx, after, 500));
    if (last === null) break;
    after = last;
    batches += 1;
  }
  await audit(
    deps.db,
    { userId: null },
    {
      type: 'search',
      action: 'search.reindexed',
      message: `Rebuilt the search index in the company's search language (${batches} batch(es) of files)`,
    },
  );
  return batches;
}
