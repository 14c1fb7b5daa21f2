import type { TTextStatus } from '@quire/contract';
import { audit } from '../../lib/audit.js';
import type { Deps } from '../../lib/deps.js';
import { notFound } from '../../lib/errors.js';
import type { FileEvent } from '../../lib/file-events.js';
import { describeError } from '../../lib/jobs/definition.js';
import * as repo from './dashboard-and-search.repository.js';
import { toSummary } from './search.service.js';
import {
  EXTRACT_LIMITS,
  ExtractionFailed,
  type ExtractLimits,
  extractText,
  textKindOf,
} from './text-extraction.js';

// Text for search: on a new version (uploaded, version_added, checked_in events of the files
// area), the version's text is read in a bounded child process (text-extraction.ts) and
// stored in version_texts with its vector; a trigger folds it into files.search_vector. A
// version whose text cannot be read says why (status failed/unsupported, error), and the file
// stays findable by its name, metadata, tags and comments.

/** The file events that bring a version with new content. */
export const TEXT_EVENTS: ReadonlySet<FileEvent['type']> = new Set([
  'uploaded',
  'version_added',
  'checked_in',
]);

const UNSUPPORTED_TYPE =
  'Files of this type are not searched by their content (images and scans are not read: no text recognition)';
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

/**
 * Reads and stores the text of one version; runs at least once per event (a repeat finds the
 * version done and stops). Outcomes are written with their audit event in one transaction.
 */
export async function extractVersion(
  deps: Deps,
  versionId: number,
  limits: ExtractLimits = EXTRACT_LIMITS,
): Promise<void> {
  const version = await repo.findVersion(deps.db, versionId);
  if (!version) return; // purged meanwhile
  if (version.text && version.text.status !== 'pending') return; // done by an earlier run
  await repo.markPending(deps.db, versionId);

  let outcome: {
    status: 'done' | 'failed' | 'unsupported';
    text: string | null;
    truncated: boolean;
    error: string | null;
  };
  if (Number(version.size) > limits.maxBytes) {
    outcome = {
      status: 'unsupported',
      text: null,
      truncated: false,
      error: `Files over ${Math.round(limits.maxBytes / 1024 / 1024)} MB are not searched by their content`,
    };
  } else {
    const bytes = await readBlob(deps, version.blobId, limits.maxBytes);
    const kind = textKindOf(version.mimeType, bytes.subarray(0, 1024));
    if (!kind) {
      outcome = { status: 'unsupported', text: null, truncated: false, error: UNSUPPORTED_TYPE };
    } else {
      try {
        const { text, truncated } = await extractText(bytes, kind, limits);
        outcome =
          kind === 'pdf' && text.trim() === ''
            ? { status: 'unsupported', text: null, truncated: false, error: NO_TEXT_LAYER }
            : { status: 'done', text, truncated, error: null };
      } catch (err) {
        if (!(err instanceof ExtractionFailed)) throw err;
        outcome = { status: 'failed', text: null, truncated: false, error: describeError(err) };
      }
    }
  }

  await deps.db.$transaction(async (tx) => {
    await repo.storeText(tx, versionId, { ...outcome, at: deps.now() });
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
            ? `Read ${outcome.text?.length ?? 0} characters of text from "${version.originalName}" for search${outcome.truncated ? ' (cut at the limit)' : ''}`
            : `The text of "${version.originalName}" was not read for search: ${outcome.error}`,
        targetType: 'file',
        targetId: version.fileId,
        details: { version_id: versionId, status: outcome.status },
      },
    );
  });
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
