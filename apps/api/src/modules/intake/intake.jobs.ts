import { z } from 'zod';
import { defineJob, JobDeferred } from '../../lib/jobs/definition.js';
import { type ScheduledPayload, scheduledJob } from '../../lib/jobs/schedules.js';
import { fileArrival } from './file-arrival.service.js';
import { pollSources } from './poll.service.js';

export { INTAKE_POLL_CRON, pollCron } from './poll.service.js';

// The intake area's jobs: the poll of every enabled source (a schedule, on while there is a
// source to poll) and the filing of each taken arrival by the rules.

declare module '../../lib/jobs/queue.js' {
  interface JobPayloads {
    'intake.poll': ScheduledPayload;
  }
}

export const intakePollJob = scheduledJob('intake.poll', 30 * 60_000, pollSources);

/** While a rule waits for the file's text, the filing looks again this often. */
const TEXT_RECHECK_MS = 10_000;

export const intakeFileJob = defineJob({
  kind: 'intake.file',
  payload: z.object({ arrival_id: z.number().int() }),
  concurrency: 2,
  async run(job, deps) {
    if ((await fileArrival(deps, job.payload.arrival_id)) === 'wait')
      throw new JobDeferred('Waiting for the file text a rule reads', TEXT_RECHECK_MS);
  },
});
