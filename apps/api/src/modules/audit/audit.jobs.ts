import { z } from 'zod';
import { defineJob } from '../../lib/jobs/definition.js';
import type { ScheduledPayload } from '../../lib/jobs/schedules.js';
import { runVerification } from './audit.service.js';

// The audit chain is walked by a job: on demand (POST /api/audits/chain/verify) and hourly,
// so the audit screen always shows a recent verdict without walking millions of events on a
// request.

declare module '../../lib/jobs/queue.js' {
  interface JobPayloads {
    'audit.verify': Partial<ScheduledPayload>;
  }
}

/** Hourly, at 23 past. */
export const AUDIT_VERIFY_CRON = '23 * * * *';

export const auditVerifyJob = defineJob({
  kind: 'audit.verify',
  // The hourly schedule's payload says when it was due; one asked for by a call has none.
  payload: z.object({ due_at: z.string().optional() }),
  timeoutMs: 30 * 60_000,
  async run(_job, deps) {
    await runVerification(deps);
  },
});
