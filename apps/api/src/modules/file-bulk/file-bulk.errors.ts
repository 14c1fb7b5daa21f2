import { AppError, createError } from '../../lib/errors.js';

// The errors of the calls on many files: each names the file that stopped the whole call.

/** One of the files does not exist or may not be seen (no name: the caller may not see it). */
export const bulkFileNotFound = () =>
  new AppError(
    'file.not_found',
    404,
    'One of the selected files was not found (deleted, or not yours to see). Nothing was changed.',
    undefined,
    { refusal: true },
  );

export const bulkFileForbidden = createError({
  code: 'file.forbidden',
  statusCode: 403,
  message: (verb: string, name: string) =>
    `You are not allowed to ${verb} "${name}". Nothing was changed: leave it out and try again.`,
});

/** Another refusal met on one file (held by someone, values that do not fit), with its name. */
export const bulkFileRefused = (name: string, error: AppError) =>
  new AppError(
    error.code,
    error.statusCode,
    `"${name}": ${error.message} Nothing was changed.`,
    error.errors,
    { refusal: error.refusal },
  );
