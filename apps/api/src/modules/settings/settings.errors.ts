import { AppError, badField, createError } from '../../lib/errors.js';

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

export const LDAP_PRIVATE_HOST_MESSAGE =
  'This host is on this machine or a private network, where Quire does not connect to a directory unless the server is started with LDAP_ALLOW_PRIVATE_HOSTS=true';

/** The directory's URL names a host on this machine or a private network (refused by default). */
export const ldapHostRefused = (path: string) => badField(path, LDAP_PRIVATE_HOST_MESSAGE);

/**
 * A new server or bind DN without a typed bind password: the stored password goes only to the
 * server (host and port) and bind DN it was saved for.
 */
export const bindPasswordRequired = (path: string) =>
  badField(
    path,
    'Type the bind password: the saved one is only sent to the saved server (host and port) and bind DN',
  );
