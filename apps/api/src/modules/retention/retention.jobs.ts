import { z } from 'zod';
import { defineJob } from '../../lib/jobs/definition.js';
import type { ScheduledPayload } from '../../lib/jobs/schedules.js';
import { scanDue } from './disposition.service.js';

// The daily retention scan (decision 018): lists the files whose retention period is over as
// pending dispositions, and brings back postponed ones whose date has come.

declare module '../../lib/jobs/queue.js' {
  interface JobPayloads {
    'retention.scan': ScheduledPayload;
  }
}

/** Daily at 01:17 (the server's clock). */
export const RETENTION_SCAN_CRON = '17 1 * * *';

export const retentionScanJob = defineJob({
  kind: 'retention.scan',
  payload: z.object({ due_at: z.string() }),
  timeoutMs: 30 * 60_000,
  async run(_job, deps) {
    await scanDue(deps);
  },
});
