import { AppError, createError } from '../../lib/errors.js';

/** Wrong username or password; never says which. The sign-in service audits it itself. */
export const invalidCredentials = () =>
  new AppError('auth.invalid_credentials', 401, 'Invalid username or password', undefined, { audited: true });

export const tooManyFailedSignIns = createError({
  code: 'auth.too_many_failed_sign_ins',
  statusCode: 429,
  message: 'Too many failed sign-in attempts for this account. Try again in 15 minutes.',
});

export const tooManyRefusedCodes = createError({
  code: 'auth.too_many_refused_codes',
  statusCode: 429,
  message: 'Too many refused two-factor codes for this account. Try again in 15 minutes.',
});

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

export const INVALID_LINK_MESSAGE = 'This link is invalid or has expired';

/** A reset or verification link that is unknown, spent, expired or for another address. */
export const invalidLink = () =>
  new AppError('auth.invalid_link', 400, INVALID_LINK_MESSAGE, [
    { path: 'body.token', message: INVALID_LINK_MESSAGE },
  ]);

export const INVALID_CODE_MESSAGE = 'Invalid verification code';

export const invalidCode = () =>
  new AppError('auth.invalid_code', 400, INVALID_CODE_MESSAGE, [
    { path: 'body.code', message: INVALID_CODE_MESSAGE },
  ]);

export const codeAlreadyUsed = () =>
  new AppError('auth.code_already_used', 400, 'This code has already been used. Wait for the next code.', [
    { path: 'body.code', message: 'This code has already been used' },
  ]);

export const twoFactorNotSetUp = createError({
  code: 'auth.two_factor_not_set_up',
  statusCode: 400,
  message: 'Two-factor authentication is not set up yet. Set it up first.',
});

export const twoFactorAlreadyOn = createError({
  code: 'auth.two_factor_already_on',
  statusCode: 409,
  message: 'Two-factor authentication is already on. Turn it off first to set up a new authenticator.',
});

export const companyRequiresTwoFactor = createError({
  code: 'auth.company_requires_two_factor',
  statusCode: 403,
  message: 'Your company requires two-factor authentication, so it cannot be turned off',
});

export const wrongPassword = (field: string) =>
  new AppError('auth.wrong_password', 400, 'The password is not correct', [
    { path: `body.${field}`, message: 'The password is not correct' },
  ]);

export const selfRegistrationOff = createError({
  code: 'auth.self_registration_off',
  statusCode: 403,
  message: 'Self-registration is turned off. Ask your administrator for an account.',
});

export const ownTwoFactorFirst = createError({
  code: 'auth.own_two_factor_first',
  statusCode: 409,
  message: 'Turn on two-factor authentication for your own account before requiring it for everyone',
});

export const ownTwoFactorInProfile = createError({
  code: 'auth.own_two_factor_in_profile',
  statusCode: 403,
  message: 'Use Profile to turn off your own two-factor authentication',
});
