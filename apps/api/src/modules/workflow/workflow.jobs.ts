import { z } from 'zod';
import { FILE_EVENT_TYPES, type FileEvent } from '../../lib/file-events.js';
import { defineJob } from '../../lib/jobs/definition.js';
import { type ScheduledPayload, scheduledJob } from '../../lib/jobs/schedules.js';
import { notifyTransition } from './run.notify.js';
import { onFileEvent, runClock } from './run.triggers.js';

// The workflow area's jobs (decision 010): file events that start or move runs, the
// notifications of each transition, and the clock that escalates overdue runs and moves
// runs whose date has come (a schedule, fired once across servers).

declare module '../../lib/jobs/queue.js' {
  interface JobPayloads {
    /** A file event (lib/file-events.ts): on-index and value-change triggers, trash cancels the run. */
    'workflow.file_event': FileEvent;
    /** Escalates overdue runs and fires date triggers. */
    'workflow.clock': ScheduledPayload;
  }
}

/** Every minute: dates and due times are kept to the minute. */
export const WORKFLOW_CLOCK_CRON = '* * * * *';

const ZFileEvent = z.object({
  type: z.enum(FILE_EVENT_TYPES),
  file_id: z.number().int().positive(),
  version_id: z.number().int().positive().optional(),
  field_ids: z.array(z.number().int().positive()).optional(),
  category_id: z.number().int().positive().nullable().optional(),
  actor_id: z.number().int().positive().nullable(),
});

export const workflowFileEventJob = defineJob({
  kind: 'workflow.file_event',
  payload: ZFileEvent,
  concurrency: 2,
  async run(job, deps) {
    await onFileEvent(deps, job.payload);
  },
});

export const workflowNotifyJob = defineJob({
  kind: 'workflow.notify',
  payload: z.object({ transition_id: z.string().regex(/^\d+$/) }),
  concurrency: 2,
  async run(job, deps) {
    await notifyTransition(deps, BigInt(job.payload.transition_id));
  },
});

export const workflowClockJob = scheduledJob('workflow.clock', 5 * 60_000, runClock);
