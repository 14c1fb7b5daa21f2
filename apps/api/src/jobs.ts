import type { FastifyInstance } from 'fastify';
import { BLOB_COLLECT_CRON, blobCollectJob } from './lib/blob-collector.js';
import type { Deps } from './lib/deps.js';
import { JOBS_CLEANUP_CRON, jobsCleanupJob } from './lib/jobs/cleanup.js';
import type { JobDefinition } from './lib/jobs/definition.js';
import { createJobRunner, type JobRunner } from './lib/jobs/runner.js';
import type { ScheduleDefinition } from './lib/jobs/schedules.js';
import { AUDIT_VERIFY_CRON, auditVerifyJob } from './modules/audit/audit.jobs.js';
import { backupRestoreJob, backupRunJob } from './modules/backup/backup.jobs.js';
import { scheduledCron } from './modules/backup/backup-schedule.service.js';
import {
  searchExtractJob,
  searchRecognizeJob,
  searchReindexJob,
} from './modules/dashboard-and-search/dashboard-and-search.jobs.js';
import { mailSendJob } from './modules/email/email.jobs.js';
import { createImapWatchers } from './modules/intake/imap/imap.watch.js';
import { intakeFileJob, intakePollJob, pollCron } from './modules/intake/intake.jobs.js';
import { notifyFollowersJob } from './modules/notification/notification.jobs.js';
import { previewDeriveJob } from './modules/preview/preview.jobs.js';
import { RETENTION_SCAN_CRON, retentionScanJob } from './modules/retention/retention.jobs.js';
import {
  WORKFLOW_CLOCK_CRON,
  workflowClockJob,
  workflowFileEventJob,
  workflowNotifyJob,
} from './modules/workflow/workflow.jobs.js';

// The one place where job kinds and recurring schedules are registered (decision 010).
//
// A kind: `defineJob({ kind, payload, run, concurrency?, backoffMs?, timeoutMs?, onFailure? })`
// in its area, its payload type declared on JobPayloads (lib/jobs/queue.ts), added below.
// A schedule: `{ name, kind, cron }`, where cron is an expression, or a function that reads
// one from the database at every look (null: off), e.g. for the backup schedule:
//   { name: 'backup', kind: 'backup.run', cron: (db) => backupService.scheduledCron(db) }
// and the call that saves it runs notifySchedulesChanged(tx) so workers look again at once.

export const jobDefinitions: JobDefinition[] = [
  mailSendJob,
  blobCollectJob,
  jobsCleanupJob,
  notifyFollowersJob,
  workflowFileEventJob,
  workflowNotifyJob,
  workflowClockJob,
  auditVerifyJob,
  searchExtractJob,
  searchRecognizeJob,
  searchReindexJob,
  previewDeriveJob,
  backupRunJob,
  backupRestoreJob,
  retentionScanJob,
  intakePollJob,
  intakeFileJob,
];

export const jobSchedules: ScheduleDefinition[] = [
  { name: 'blobs.collect', kind: 'blobs.collect', cron: BLOB_COLLECT_CRON },
  { name: 'jobs.cleanup', kind: 'jobs.cleanup', cron: JOBS_CLEANUP_CRON },
  { name: 'workflow.clock', kind: 'workflow.clock', cron: WORKFLOW_CLOCK_CRON },
  { name: 'audit.verify', kind: 'audit.verify', cron: AUDIT_VERIFY_CRON },
  { name: 'retention.scan', kind: 'retention.scan', cron: RETENTION_SCAN_CRON },
  // Every 5 seconds while an intake source is enabled (null, off, while none is).
  { name: 'intake.poll', kind: 'intake.poll', cron: pollCron },
  // The backup schedule's expression is the backup_schedules row's (null while it is off).
  { name: 'backup', kind: 'backup.run', cron: scheduledCron },
];

declare module 'fastify' {
  interface FastifyInstance {
    /** The job runner; it works in the background when QUIRE_ROLE is all or worker. */
    jobs: JobRunner;
  }
}

/** Gives the app its job runner: started when the app is ready (unless QUIRE_ROLE=api), stopped on close. */
export function attachJobRunner(app: FastifyInstance, deps: Deps): JobRunner {
  const runner = createJobRunner(deps, {
    definitions: jobDefinitions,
    schedules: jobSchedules,
    pollMs: deps.config.JOBS_POLL_MS,
  });
  app.decorate('jobs', runner);
  if (deps.config.QUIRE_ROLE !== 'api') app.addHook('onReady', () => runner.start());
  app.addHook('onClose', () => runner.stop());
  // Where jobs run, e-mail inboxes are watched in IDLE: new mail wakes the intake.poll beat.
  const inboxWatchers = createImapWatchers(deps);
  if (deps.config.QUIRE_ROLE !== 'api')
    app.addHook('onReady', async () => {
      void inboxWatchers.start();
    });
  app.addHook('onClose', () => inboxWatchers.stop());
  return runner;
}
