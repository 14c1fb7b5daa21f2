import { z } from 'zod';
import { contentVersionJob, type FileEvent } from '../../lib/file-events.js';
import { defineJob } from '../../lib/jobs/definition.js';
import { extractVersion, reindexAll } from './extraction.service.js';

// The search area's jobs (decision 010): text extraction, subscribed to file events
// (FILE_EVENT_SUBSCRIBERS), and the rebuild of every vector after the search language changed
// (enqueued by a trigger on companies.search_language, migration 0011_search).

declare module '../../lib/jobs/queue.js' {
  interface JobPayloads {
    'search.extract': FileEvent;
    'search.reindex': Record<string, never>;
    'search.recognize': { version_id: number };
  }
}

// Other events change no content: names, values, tags and comments are kept by triggers. Text
// recognition of a long scan takes a few seconds a page (OCR_MAX_PAGES at most).
export const searchExtractJob = contentVersionJob('search.extract', 60 * 60_000, (deps, versionId) =>
  extractVersion(deps, versionId),
);

export const searchReindexJob = defineJob({
  kind: 'search.reindex',
  payload: z.object({}).strict() as unknown as z.ZodType<Record<string, never>>,
  timeoutMs: 60 * 60_000,
  async run(job, deps) {
    await reindexAll(deps, job.signal);
  },
});

/** Text recognition asked for again by an editor (requestRecognition): reads the version anew. */
export const searchRecognizeJob = defineJob({
  kind: 'search.recognize',
  payload: z.object({ version_id: z.number().int() }),
  concurrency: 1,
  timeoutMs: 60 * 60_000,
  async run(job, deps) {
    await extractVersion(deps, job.payload.version_id, { force: true });
  },
});
