import { AppError, createError, refusedAt } from '../../lib/errors.js';

/** Wrong username or password; never says which. The sign-in service audits it itself. */
export const invalidCredentials = () =>
  new AppError('auth.invalid_credentials', 401, 'Invalid username or password', undefined, { audited: true });

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

/** A self-registered account whose e-mail link has not been followed yet (after the right password). */
export const emailNotVerified = createError({
  code: 'auth.email_not_verified',
  statusCode: 403,
  message: 'Your e-mail address is not confirmed yet. Open the link we sent you, or ask for a new one.',
});

export const invalidRole = createError({
  code: 'auth.invalid_role',
  statusCode: 403,
  message: 'Invalid role, Try again with the correct role',
});

export { INVALID_LINK_MESSAGE, invalidLink } from '../account/account.errors.js';

const INVALID_CODE_MESSAGE = 'Invalid verification code';

export const invalidCode = () => refusedAt('auth.invalid_code', 'body.code', INVALID_CODE_MESSAGE);

const INVALID_RECOVERY_MESSAGE = 'That is not one of your unused recovery codes';
export const invalidRecoveryCode = () =>
  refusedAt('auth.invalid_recovery_code', 'body.recovery_code', INVALID_RECOVERY_MESSAGE);

export const codeAlreadyUsed = () =>
  refusedAt(
    'auth.code_already_used',
    'body.code',
    'This code has already been used. Wait for the next code.',
    'This code has already been used',
  );

export const twoFactorNotSetUp = createError({
  code: 'auth.two_factor_not_set_up',
  statusCode: 409,
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
  refusedAt('auth.wrong_password', `body.${field}`, 'The password is not correct');

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
