import type { TTextMarks } from '@quire/contract';
import type { Deps } from '../../lib/deps.js';
import { notFound } from '../../lib/errors.js';
import { readAll } from '../../lib/streams.js';
import * as repo from './dashboard-and-search.repository.js';
import type { WordBox } from './text-recognition.js';

// Where a search's words are on a recognised page: text recognition keeps Tesseract's word
// boxes beside the version's text (extraction.service.ts); the file page asks for the boxes
// of the words it was opened with, on the page it opened at, and draws them over the page.
// Pages with a text layer are marked by the browser from that layer (no boxes are kept).

/** Words as they are compared: lower case, letters and digits only. */
const fold = (word: string) => word.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');

/** The words asked for: at most 10, of two characters or more. */
export const markedTerms = (words: string) =>
  [...new Set(words.split(/\s+/).map(fold))].filter((w) => w.length >= 2).slice(0, 10);

/** Boxes of the recognised words on `page` (1-based) holding one of `words`, as fractions of the page. */
export async function textMarks(
  deps: Deps,
  fileId: number,
  page: number,
  words: string,
): Promise<TTextMarks> {
  const found = await repo.wordBoxesOfFile(deps.db, fileId);
  if (!found) throw notFound('File');
  const answer = { version_id: found.versionId, page, words: markedTerms(words) };
  if (!found.blobId) return { ...answer, recognised: false, marks: [] };
  const stored = JSON.parse((await readAll(await deps.blobs.read(found.blobId))).toString('utf8')) as {
    pages: Array<{ page: number; words: WordBox[] }>;
  };
  const boxes = stored.pages.find((p) => p.page === page - 1)?.words ?? [];
  const marks = boxes
    .filter(([, , , , word]) => answer.words.some((term) => fold(word).includes(term)))
    .map(([x, y, width, height]) => ({
      x: x / 10_000,
      y: y / 10_000,
      width: width / 10_000,
      height: height / 10_000,
    }));
  return { ...answer, recognised: true, marks };
}
