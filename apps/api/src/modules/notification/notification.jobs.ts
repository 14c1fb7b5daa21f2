import { type FileEvent, ZFileEvent } from '../../lib/file-events.js';
import { defineJob } from '../../lib/jobs/definition.js';
import { notifyFollowers } from './notification.service.js';

declare module '../../lib/jobs/queue.js' {
  interface JobPayloads {
    /** A file event (lib/file-events.ts): its file's followers are told. */
    'notification.file_event': FileEvent;
  }
}

export const notifyFollowersJob = defineJob({
  kind: 'notification.file_event',
  payload: ZFileEvent,
  concurrency: 2,
  async run(job, deps) {
    await notifyFollowers(deps, job.id, job.payload);
  },
});
