import { type ScheduledPayload, scheduledJob } from '../../lib/jobs/schedules.js';
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

export const retentionScanJob = scheduledJob('retention.scan', 30 * 60_000, scanDue);
