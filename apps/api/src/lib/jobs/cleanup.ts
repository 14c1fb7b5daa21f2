import { z } from 'zod';
import { defineJob } from './definition.js';
import { deleteFinished } from './repository.js';
import type { ScheduledPayload } from './schedules.js';

// Finished jobs are kept a while for whoever looks into what happened, then deleted by this
// job on a schedule. (The mail queue keeps its own log in mail_jobs; these are the work items.)

declare module './queue.js' {
  interface JobPayloads {
    'jobs.cleanup': Partial<ScheduledPayload>;
  }
}

export const KEEP_DONE_MS = 7 * 24 * 60 * 60_000;
export const KEEP_FAILED_MS = 30 * 24 * 60 * 60_000;
/** Every day at 03:47. */
export const JOBS_CLEANUP_CRON = '47 3 * * *';
const BATCH = 1000;

export const jobsCleanupJob = defineJob({
  kind: 'jobs.cleanup',
  payload: z.object({ due_at: z.string().optional() }),
  async run(job, deps) {
    const now = deps.now().getTime();
    for (;;) {
      if (job.signal.aborted) return;
      const n = await deleteFinished(
        deps.db,
        new Date(now - KEEP_DONE_MS),
        new Date(now - KEEP_FAILED_MS),
        BATCH,
      );
      if (n < BATCH) return;
    }
  },
});
