import { CONTENT_EVENTS, type FileEvent, ZFileEvent } from '../../lib/file-events.js';
import { defineJob } from '../../lib/jobs/definition.js';
import { deriveVersion } from './preview.service.js';

// The preview area's job: thumbnails and Office previews of each new version, subscribed to
// file events (FILE_EVENT_SUBSCRIBERS).

declare module '../../lib/jobs/queue.js' {
  interface JobPayloads {
    'preview.derive': FileEvent;
  }
}

export const previewDeriveJob = defineJob({
  kind: 'preview.derive',
  payload: ZFileEvent,
  // The renderer runs in its own process: one at a time per worker process (2 cores shared).
  concurrency: 1,
  timeoutMs: 5 * 60_000,
  async run(job, deps) {
    const event = job.payload;
    if (!CONTENT_EVENTS.has(event.type) || event.version_id === undefined) return;
    await deriveVersion(deps, event.version_id);
  },
});
