import { contentVersionJob, type FileEvent } from '../../lib/file-events.js';
import { deriveVersion } from './preview.service.js';

// The preview area's job: thumbnails and Office previews of each new version, subscribed to
// file events (FILE_EVENT_SUBSCRIBERS).

declare module '../../lib/jobs/queue.js' {
  interface JobPayloads {
    'preview.derive': FileEvent;
  }
}

export const previewDeriveJob = contentVersionJob('preview.derive', 5 * 60_000, deriveVersion);
