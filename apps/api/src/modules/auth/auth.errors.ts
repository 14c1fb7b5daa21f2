import { AppError, createError } from '../../lib/errors.js';

/** Wrong username or password; never says which. */
export const invalidCredentials = (username: string) =>
  new AppError('auth.invalid_credentials', 401, 'Invalid username or password', undefined, { username });

export const accountInactive = (status: string) =>
  new AppError(
    'auth.account_inactive',
    403,
    status === 'deleted'
      ? 'This account has been deleted. Contact your administrator.'
      : 'This account is deactivated. Contact your administrator.',
  );

export const invalidRole = createError({
  code: 'auth.invalid_role',
  statusCode: 403,
  message: 'Invalid role, Try again with the correct role',
});
