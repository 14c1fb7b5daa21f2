import { AppError, createError } from '../../lib/errors.js';

/** The directory test or sign-in could not be done: the exact reason. */
export const directoryFailed = (reason: string) => new AppError('settings.directory_failed', 502, reason);

export const directoryUserNotFound = createError({
  code: 'settings.directory_user_not_found',
  statusCode: 502,
  message: (username: string, filter: string, base: string) =>
    `Bound fine, but no entry matches ${filter.replaceAll('{username}', username)} under ${base}`,
});

/** A directory account cannot sign in while its directory is unreachable. */
export const directoryUnavailable = createError({
  code: 'settings.directory_unavailable',
  statusCode: 503,
  message:
    'The directory server could not be reached, so directory accounts cannot sign in right now. Try again later.',
});

export const providerNotFound = createError({
  code: 'settings.provider_not_found',
  statusCode: 404,
  message: 'No such directory connection',
});
