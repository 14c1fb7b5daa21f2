import { createError, refusedAt } from '../../lib/errors.js';

export const backupNotFound = createError({
  code: 'backup.not_found',
  statusCode: 404,
  message: 'Backup not found',
});

export const backupFileGone = createError({
  code: 'backup.file_deleted',
  statusCode: 409,
  message: 'The archive of this backup was deleted; only its record is left.',
});

export const backupNotReady = createError({
  code: 'backup.not_ready',
  statusCode: 409,
  message: 'This backup has no finished archive (it is still running, or it failed).',
});

export const backupBusy = createError({
  code: 'backup.busy',
  statusCode: 409,
  message: (what: string) => `A ${what} is running. Wait until it has finished.`,
});

export const backupInUse = createError({
  code: 'backup.in_use',
  statusCode: 409,
  message: 'This backup is running or being restored. Wait until it has finished.',
});

/** An uploaded archive that does not match its manifest (or is no archive): nothing is listed. */
export const invalidArchive = (reason: string) =>
  refusedAt('backup.invalid_archive', 'body.file', `This is not a usable Quire backup: ${reason}`, reason);

/** A stored archive that no longer carries this installation's signature: nothing is restored. */
export const unrestorableArchive = (reason: string) =>
  refusedAt(
    'backup.invalid_archive',
    'params.id',
    `This backup cannot be restored, nothing was changed: ${reason}`,
    reason,
  );

export const badCron = (reason: string) =>
  refusedAt('validation_failed', 'body.cron', `cron: ${reason}`, reason);

/** What a refused non-Company-Admin was trying to do (assertCompanyAdmin's message). */
export const MANAGE_BACKUPS = 'manage backups';
