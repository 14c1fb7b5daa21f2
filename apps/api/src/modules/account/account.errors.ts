import { AppError, createError, refusedAt } from '../../lib/errors.js';

export const INVALID_LINK_MESSAGE = 'This link is invalid or has expired';

/** A reset or verification link that is unknown, spent, expired or for another address. */
export const invalidLink = () => refusedAt('auth.invalid_link', 'body.token', INVALID_LINK_MESSAGE);

export const wrongCurrentPassword = () =>
  refusedAt('auth.wrong_current_password', 'body.current_password', 'The current password is not correct');

export const sameAsCurrentPassword = () =>
  refusedAt('validation_failed', 'body.new_password', 'The new password must differ from the current one');

/** The account's progressive slowdown after failed passwords (never a lock: it ends on its own). */
export const signInDelayed = (seconds: number) =>
  new AppError(
    'auth.sign_in_delayed',
    429,
    `Too many failed attempts for this account. Wait ${seconds} ${seconds === 1 ? 'second' : 'seconds'} and try again, or reset your password.`,
  );

export const tooManyFailuresFromAddress = createError({
  code: 'auth.too_many_failures_from_address',
  statusCode: 429,
  message: 'Too many failed sign-in attempts from your network. Try again in 15 minutes.',
});
