import { z } from 'zod';
import { ZIdParams, ZNull, ZPage, ZPageQuery, zSecret } from './common.js';
import { zCron } from './cron.js';
import { endpoint } from './http.js';

// Backups (spec §7 "Backup"): one archive of the whole system (every table, every blob, a
// manifest), made by a job, listed, scheduled, downloaded, uploaded and restored. Settings
// area; every call that writes, and downloading, is the Company Admin's (the API checks the
// access type beyond the area guard); Auditors and User Administration Admins may read the lists.

export const BACKUP_KINDS = ['manual', 'scheduled', 'uploaded'] as const;
export const BACKUP_STATUSES = ['queued', 'running', 'succeeded', 'failed', 'restoring', 'restored'] as const;
export const ZBackupStatus = z.enum(BACKUP_STATUSES);

/** A backup run and its archive. */
export const ZBackup = z.object({
  id: z.number().int(),
  kind: z.enum(BACKUP_KINDS),
  status: ZBackupStatus,
  /** 0-100 while a backup or a restore runs. */
  progress: z.number().int(),
  file_name: z.string().nullable(),
  size: z.number().nullable(),
  /** The last database migration the archive contains. */
  migration: z.string().nullable(),
  /** Whether the archive file is still there (delete_backup_file removes it, not the record). */
  has_file: z.boolean(),
  verified_at: z.string().nullable(),
  error: z.string().nullable(),
  requested_by: z.string().nullable(),
  started_at: z.string().nullable(),
  finished_at: z.string().nullable(),
  restored_at: z.string().nullable(),
  created_at: z.string(),
});
export type TBackup = z.infer<typeof ZBackup>;

export const SCHEDULE_FREQUENCIES = ['daily', 'weekly', 'custom'] as const;

/** The backup schedule: a cron expression (daily and weekly are shorthands for one). */
export const ZBackupSchedule = z.object({
  enabled: z.boolean(),
  frequency: z.enum(SCHEDULE_FREQUENCIES),
  /** HH:MM for daily and weekly; null for a custom expression. */
  time: z.string().nullable(),
  /** 0 (Sunday) to 6 for weekly; null otherwise. */
  day_of_week: z.number().int().nullable(),
  cron: z.string(),
  keep_last: z.number().int(),
  /** When it runs next (null when off). */
  next_run_at: z.string().nullable(),
  updated_at: z.string().nullable(),
});
export type TBackupSchedule = z.infer<typeof ZBackupSchedule>;

/** GET /api/backup: the runs, newest first, and the schedule. */
export const ZBackupOverview = ZPage(ZBackup).extend({ schedule: ZBackupSchedule });

/** An archive that can be downloaded or restored. */
export const ZBackupFile = z.object({
  id: z.number().int(),
  file_name: z.string(),
  size: z.number(),
  kind: z.enum(BACKUP_KINDS),
  migration: z.string().nullable(),
  quire_version: z.string().nullable(),
  created_at: z.string(),
  created_by: z.string().nullable(),
  /** When its checksums were last verified (made here, or checked on upload). */
  verified_at: z.string().nullable(),
});
export type TBackupFile = z.infer<typeof ZBackupFile>;

const TIME = /^([01]\d|2[0-3]):[0-5]\d$/;

export const ZScheduleBackupBody = z
  .object({
    enabled: z.boolean(),
    frequency: z.enum(SCHEDULE_FREQUENCIES),
    /** HH:MM (24 h) for daily and weekly (default 02:00). */
    time: z.string().regex(TIME, 'Enter a time as HH:MM').optional(),
    /** 0 (Sunday) to 6, for weekly (default 0). */
    day_of_week: z.number().int().min(0, 'Choose a day').max(6, 'Choose a day').optional(),
    /** A node-cron expression (5 fields, or 6 with seconds), for custom. */
    cron: zCron({ seconds: true }).optional(),
    /** Scheduled backups to keep; older ones are deleted after each scheduled run. */
    keep_last: z
      .number()
      .int('Enter a whole number')
      .min(1, 'Keep at least 1 backup')
      .max(365, 'Keep at most 365 backups'),
  })
  .refine((b) => b.frequency !== 'custom' || (b.cron ?? '') !== '', {
    path: ['cron'],
    message: 'Enter a cron expression',
  });
export type TScheduleBackupBody = z.infer<typeof ZScheduleBackupBody>;

/** Downloading, uploading and restoring ask for the admin's password again, and the 2FA code when on. */
export const ZReauthFields = {
  password: zSecret().min(1, 'Enter your password').max(1024),
  /** The current code of the admin's authenticator app, when the admin has 2FA. */
  code: z
    .string()
    .trim()
    .regex(/^\d{6}$/, 'Enter the 6-digit code')
    .optional(),
};
export const ZReauthBody = z.object(ZReauthFields);

/** The word typed to confirm a restore. */
export const RESTORE_CONFIRMATION = 'RESTORE';

export const ZRestoreBackupBody = z.object({
  ...ZReauthFields,
  confirmation: z.string().refine((v) => v === RESTORE_CONFIRMATION, {
    message: `Type ${RESTORE_CONFIRMATION} to confirm`,
  }),
});

/** Multipart fields of upload_backup (fields before the file). */
export const ZUploadBackupBody = z.object({
  password: zSecret().min(1, 'Enter your password').max(1024),
  code: z
    .string()
    .trim()
    .regex(/^(\d{6})?$/, 'Enter the 6-digit code')
    .optional(),
  file: z.custom<Blob>(),
});

export const BACKUP_MEDIA_TYPE = 'application/x-tar';

export const backupContract = {
  list: endpoint({
    method: 'GET',
    path: '/api/backup',
    guard: { area: 'settings', access: 'read' },
    summary: 'Backup runs, newest first (with progress while one runs), and the backup schedule',
    query: ZPageQuery(20),
    response: ZBackupOverview,
  }),
  files: endpoint({
    method: 'GET',
    path: '/api/backup-files',
    guard: { area: 'settings', access: 'read' },
    summary: 'Backup archives that can be downloaded or restored: size, created, by whom, verified',
    response: z.array(ZBackupFile),
  }),
  create: endpoint({
    method: 'POST',
    path: '/api/create_backup',
    guard: { area: 'settings', access: 'write' },
    summary:
      'Start a backup of the whole system (every table, every blob, a manifest) as a job; 409 while another backup or a restore runs',
    response: ZBackup,
  }),
  schedule: endpoint({
    method: 'POST',
    path: '/api/schedule_backup',
    guard: { area: 'settings', access: 'write' },
    summary:
      'Set the backup schedule (daily, weekly or a cron expression) and how many scheduled backups to keep',
    body: ZScheduleBackupBody,
    response: ZBackupSchedule,
  }),
  delete: endpoint({
    method: 'POST',
    path: '/api/delete_backup/{id}',
    guard: { area: 'settings', access: 'write' },
    summary: 'Delete a backup run and its archive (409 while it runs or is being restored)',
    params: ZIdParams,
    response: ZNull,
  }),
  deleteFile: endpoint({
    method: 'POST',
    path: '/api/delete_backup_file/{id}',
    guard: { area: 'settings', access: 'write' },
    summary: 'Delete the archive file of a backup; the run stays in the list',
    params: ZIdParams,
    response: ZNull,
  }),
  downloadFile: endpoint({
    method: 'POST',
    path: '/api/download_backup_file/{id}',
    guard: { area: 'settings', access: 'write' },
    summary: 'Download a backup archive (tar); asks for the password again, and the 2FA code when on',
    params: ZIdParams,
    body: ZReauthBody,
    produces: 'file',
    mediaType: BACKUP_MEDIA_TYPE,
  }),
  upload: endpoint({
    method: 'POST',
    path: '/api/upload_backup',
    guard: { area: 'settings', access: 'write' },
    summary:
      'Upload an archive made by a Quire (streamed, size-limited); listed only once every checksum matches its manifest',
    consumes: 'multipart',
    upload: { field: 'file' },
    body: ZUploadBackupBody,
    response: ZBackup,
  }),
  restore: endpoint({
    method: 'POST',
    path: '/api/restore_backup/{id}',
    guard: { area: 'settings', access: 'write' },
    summary:
      'Restore a backup (typed confirmation, password again): verifies every checksum, then replaces the data in one transaction, as a job',
    params: ZIdParams,
    body: ZRestoreBackupBody,
    response: ZBackup,
  }),
};
