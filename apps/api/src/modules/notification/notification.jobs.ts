import { z } from 'zod';
import { FILE_EVENT_TYPES, type FileEvent } from '../../lib/file-events.js';
import { defineJob } from '../../lib/jobs/definition.js';
import { notifyFollowers } from './notification.service.js';

declare module '../../lib/jobs/queue.js' {
  interface JobPayloads {
    /** A file event (lib/file-events.ts): its file's followers are told. */
    'notification.file_event': FileEvent;
  }
}

const ZFileEvent = z.object({
  type: z.enum(FILE_EVENT_TYPES),
  file_id: z.number().int(),
  version_id: z.number().int().optional(),
  field_ids: z.array(z.number().int()).optional(),
  category_id: z.number().int().nullable().optional(),
  actor_id: z.number().int().nullable(),
});

export const notifyFollowersJob = defineJob({
  kind: 'notification.file_event',
  payload: ZFileEvent,
  concurrency: 2,
  async run(job, deps) {
    await notifyFollowers(deps, job.id, job.payload as FileEvent);
  },
});
